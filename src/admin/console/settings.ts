// The console's settings (config.console), read once at start.
import { ConfigError, type Source } from '../../config.ts';

export function loadConsoleSettings(src: Source) {
  const raw = (src.SVC_CONSOLE_KEY_SIGNIN ?? 'on').trim().toLowerCase();
  if (!['on', 'off'].includes(raw)) throw new ConfigError(`SVC_CONSOLE_KEY_SIGNIN must be on or off, got ${JSON.stringify(src.SVC_CONSOLE_KEY_SIGNIN)}`);
  return Object.freeze({
    // off: an account that has a passkey signs in to the console with it only (docs/operations.md,
    // "Passkeys"); accounts without one keep key sign-in, so nobody is locked out.
    keySignIn: raw === 'on',
  });
}

export type ConsoleSettings = ReturnType<typeof loadConsoleSettings>;

declare module '../../config.ts' {
  interface DomainSettings {
    console: ConsoleSettings;
  }
}
