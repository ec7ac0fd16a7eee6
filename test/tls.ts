// A self-signed TLS certificate for test servers on loopback, made with openssl (2 days, RSA 2048)
// for the given DNS names; the first name is the subject's CN. Nothing is left on disk.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface SelfSigned {
  /** The certificate (PEM): the server's cert and the client's extra CA. */
  cert: string;
  /** The private key (PEM). */
  key: string;
}

export function selfSignedCert(names: readonly string[]): SelfSigned {
  if (names.length === 0) throw new Error('selfSignedCert needs at least one DNS name');
  const dir = mkdtempSync(join(tmpdir(), 'svc-tls-'));
  try {
    const keyFile = join(dir, 'key.pem');
    const certFile = join(dir, 'cert.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '2',
        '-keyout',
        keyFile,
        '-out',
        certFile,
        '-subj',
        `/CN=${names[0]}`,
        '-addext',
        `subjectAltName=${names.map((n) => `DNS:${n}`).join(',')}`,
      ],
      { stdio: 'ignore' },
    );
    return { cert: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
