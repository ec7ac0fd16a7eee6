// A software passkey for the HTTP tests: an ES256 key pair that answers the console's creation
// and request options the way a platform authenticator does (attestation "none", user present
// and verified, a counter that rises). The origin it reports is the test's to choose.
import { createHash, createPublicKey, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

const b64 = (b: Uint8Array | Buffer) => Buffer.from(b).toString('base64url');
const sha256 = (b: Uint8Array | string) => createHash('sha256').update(b).digest();

export class SoftPasskey {
  readonly id = randomBytes(16);
  private readonly keys: { privateKey: KeyObject; publicKey: KeyObject };
  private counter = 0;

  constructor(privateKey: KeyObject = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey) {
    this.keys = { privateKey, publicKey: createPublicKey(privateKey) };
  }

  private authData(rpID: string, attested: boolean): Buffer {
    this.counter += 1;
    const count = Buffer.alloc(4);
    count.writeUInt32BE(this.counter);
    const flags = 0x01 | 0x04 | (attested ? 0x40 : 0);
    const head = Buffer.concat([sha256(rpID), Buffer.from([flags]), count]);
    if (!attested) return head;
    const jwk = this.keys.publicKey.export({ format: 'jwk' });
    const cose = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    );
    const len = Buffer.alloc(2);
    len.writeUInt16BE(this.id.length);
    return Buffer.concat([head, Buffer.alloc(16), len, this.id, cose]);
  }

  private clientData(type: string, challenge: string, origin: string) {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  /** The answer to creation options (`rp.id`, `challenge`). */
  create(options: { rp: { id?: string }; challenge: string }, origin: string) {
    const clientDataJSON = this.clientData('webauthn.create', options.challenge, origin);
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', this.authData(options.rp.id!, true)],
      ]) as never,
    );
    return {
      id: b64(this.id),
      rawId: b64(this.id),
      type: 'public-key',
      clientExtensionResults: {},
      response: { clientDataJSON: b64(clientDataJSON), attestationObject: b64(attestationObject), transports: ['internal'] },
    };
  }

  /** The answer to request options (`rpId`, `challenge`). */
  get(options: { rpId?: string; challenge: string }, origin: string) {
    const clientDataJSON = this.clientData('webauthn.get', options.challenge, origin);
    const authenticatorData = this.authData(options.rpId!, false);
    const signature = sign('sha256', Buffer.concat([authenticatorData, sha256(clientDataJSON)]), this.keys.privateKey);
    return {
      id: b64(this.id),
      rawId: b64(this.id),
      type: 'public-key',
      clientExtensionResults: {},
      response: { clientDataJSON: b64(clientDataJSON), authenticatorData: b64(authenticatorData), signature: b64(signature) },
    };
  }
}
