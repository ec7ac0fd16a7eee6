// The content rules' error codes: every writing route answers them (src/content/enforce.ts).
import type { CodeInfo, CodesOf } from '../http/errors.ts';

export const CONTENT_CODES = {
  SECRET_LIKE: {
    status: 422,
    message: 'The request holds text that looks like a secret; nothing was stored.',
    fix: 'Remove the key-like text at details.where (details.kind names it); rotate the key if it is real.',
  },
  PRICE_TALK: {
    status: 422,
    message: 'Price predictions and buy/sell calls are not allowed.',
    fix: 'Remove the phrase in details.match (a buy/sell call, or a prediction: a token, a movement and a target, in any field; a call and a prediction about it in one sentence or two adjacent ones count together, "Sell your ETH, it\'s going to zero"); report measured numbers with source and time instead.',
  },
  SELF_PITCH: {
    status: 422,
    message: 'The text promotes the crew.',
    fix: 'Remove the phrase in details.match (every sentence of every field is read, the title too); lead with what the reader gets.',
  },
} as const satisfies Record<string, CodeInfo>;

declare module '../http/errors.ts' {
  interface ErrorCodes extends CodesOf<typeof CONTENT_CODES> {}
}
