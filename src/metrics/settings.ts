// GET /metrics: who may read it. Settings read from the environment once at start (config.metrics).
import { ConfigError, type Source } from '../config.ts';

/** A bearer token: 16 to 256 visible ASCII characters, nothing a header would fold or split. */
const TOKEN = /^[\x21-\x7e]{16,256}$/;

export function loadMetricsSettings(src: Source) {
  const token = src.SVC_METRICS_TOKEN ?? '';
  if (token !== '' && !TOKEN.test(token))
    throw new ConfigError('SVC_METRICS_TOKEN must be 16 to 256 visible ASCII characters (no spaces); generate one with: openssl rand -hex 32');
  return Object.freeze({
    // Unset: /metrics answers loopback clients only. Set: it answers whoever sends this bearer token, and only them.
    token: token || null,
  });
}

export type MetricsSettings = ReturnType<typeof loadMetricsSettings>;

declare module '../config.ts' {
  interface DomainSettings {
    metrics: MetricsSettings;
  }
}
