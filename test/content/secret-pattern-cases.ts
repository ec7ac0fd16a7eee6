// The cases that pin down each secret kind of src/content/secret-patterns.ts, keyed by kind in
// table order (secret-patterns.test.ts runs every one through findSecret).
//
// So that this repository never holds anything that looks like a live secret, case strings use
// placeholders the tests expand with generated material (see fixtures.ts):
//   {{b62:N}} random base62, {{A36:N}} random [A-Z0-9], {{hex:N}}, {{b64:N}}, {{b64url:N}},
//   {{d:N}} digits, {{mnemonic:N}} a valid N-word phrase, {{bad_mnemonic:N}} N list words with no
//   valid phrase inside, {{solana_keypair_b58}} and friends, {{jwt_hs256}}, …
// The few literal positives are published documentation examples (AKIAIOSFODNN7EXAMPLE and the
// all-"abandon" BIP-39 test vector).

const PEM_BODY = '{{b64:64}}\n{{b64:64}}\n{{b64:20}}==';

export const SECRET_CASES: Record<string, { positives: string[]; negatives: string[] }> = {
  pem_private_key: {
    positives: [
      `-----BEGIN RSA PRIVATE KEY-----\n${PEM_BODY}\n-----END RSA PRIVATE KEY-----`,
      `-----BEGIN EC PRIVATE KEY-----\n${PEM_BODY}\n-----END EC PRIVATE KEY-----`,
      `here is the deploy key:\n-----BEGIN OPENSSH PRIVATE KEY-----\n${PEM_BODY}\n-----END OPENSSH PRIVATE KEY-----`,
      `-----BEGIN ENCRYPTED PRIVATE KEY-----\n${PEM_BODY}\n-----END ENCRYPTED PRIVATE KEY-----`,
      `-----BEGIN PRIVATE KEY-----\n${PEM_BODY}\n-----END PRIVATE KEY-----`,
      '"private_key": "-----BEGIN PRIVATE KEY-----\\n{{b64:64}}\\n{{b64:64}}\\n-----END PRIVATE KEY-----\\n"',
      `-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,{{hex:32}}\n\n${PEM_BODY}\n-----END RSA PRIVATE KEY-----`,
    ],
    negatives: [
      `-----BEGIN PUBLIC KEY-----\n${PEM_BODY}\n-----END PUBLIC KEY-----`,
      `-----BEGIN CERTIFICATE-----\n${PEM_BODY}\n-----END CERTIFICATE-----`,
      'Never commit files that start with -----BEGIN RSA PRIVATE KEY----- to a repository.',
      '-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----',
      '-----BEGIN OPENSSH PRIVATE KEY-----\nXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX\n-----END OPENSSH PRIVATE KEY-----',
      'The BEGIN RSA PRIVATE KEY header marks PKCS#1 files.',
    ],
  },
  seed_phrase: {
    positives: [
      'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about',
      '{{mnemonic:12}}',
      'my backup: {{mnemonic:15}} (do not share)',
      '{{mnemonic:18}}',
      '{{mnemonic:21}}',
      '{{mnemonic:24}}',
      '{{mnemonic_numbered:12}}',
      '{{MNEMONIC:12}}',
    ],
    negatives: [
      '{{bad_mnemonic:12}}',
      '{{bad_mnemonic:24}}',
      '{{bad_mnemonic:14}}',
      'The ability to adapt is about action, not access: we found the actual cause in the cache layer.',
      'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about',
      'Apple banana cherry: a list of fruit, then some other words like ocean, forest, river and desert.',
    ],
  },
  solana_secret_key: {
    positives: [
      '{{solana_keypair_b58}}',
      'SOLANA_PRIVATE_KEY={{solana_keypair_b58}}',
      '{{solana_keypair_json}}',
      'id.json: {{solana_keypair_json_spaced}}',
      '{{solana_keypair_hex}}',
    ],
    negatives: [
      'tx {{solana_signature_b58}} confirmed in slot 301234567',
      'wallet {{solana_pubkey_b58}}',
      '{{random64_json}}',
      '[1, 2, 3, 4, 5]',
      'sha512 {{hex:128}}',
    ],
  },
  hex_private_key: {
    positives: [
      'private key: {{hex:64}}',
      'PRIVATE_KEY=0x{{hex:64}}',
      'privkey {{hex:64}}',
      'client secret = {{hex:64}}',
      'priv_key: "{{hex:64}}"',
      'Private key:\n{{hex:64}}',
    ],
    negatives: [
      'sha256: {{hex:64}}',
      '{{hex:64}}',
      'commit {{hex:40}} fixed it',
      'Rotate your private key today. Release checksum: {{hex:64}}',
      'private key: 0000000000000000000000000000000000000000000000000000000000000000',
      'private key: {{hex:63}}',
    ],
  },
  aws_access_key: {
    positives: [
      'AKIAIOSFODNN7EXAMPLE',
      'aws_access_key_id = AKIA{{A36:16}}',
      'ASIA{{A36:16}}',
      'export AWS_ACCESS_KEY_ID="AKIA{{A36:16}}"',
      'creds: ASIA{{A36:16}}, region us-east-1',
    ],
    negatives: [
      'AKIAXXXXXXXXXXXXXXXX',
      'AKIA1234567890ABCDEF',
      'akiaiosfodnn7example',
      'AKIAIOSFODNN7EXAMP',
      'The AKIA prefix marks long-term keys and ASIA marks temporary ones.',
    ],
  },
  github_token: {
    positives: [
      'ghp_{{b62:36}}',
      'GITHUB_TOKEN=gho_{{b62:36}}',
      'token ghu_{{b62:36}} expired?',
      'ghs_{{b62:36}}',
      'ghr_{{b62:36}}',
      'github_pat_{{b62:22}}_{{b62:59}}',
    ],
    negatives: [
      'ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
      'ghp_{{b62:35}}',
      'ghx_{{b62:36}}',
      'github_pat_{{b62:30}}',
      'Personal access tokens start with ghp_ and fine-grained ones with github_pat_.',
    ],
  },
  slack_webhook: {
    positives: [
      'https://hooks.slack.com/services/T{{A36:10}}/B{{A36:10}}/{{b62:24}}',
      'SLACK_WEBHOOK_URL=https://hooks.slack.com/services/T{{A36:8}}/B{{A36:8}}/{{b62:24}}',
      'posting to hooks.slack.com/services/T{{A36:10}}/B{{A36:11}}/{{b62:24}} every hour',
      '<https://hooks.slack.com/services/T{{A36:9}}/B{{A36:9}}/{{b62:24}}>',
      'https://hooks.slack.com/workflows/T{{A36:10}}/A{{A36:10}}/{{d:18}}/{{b62:24}}',
    ],
    negatives: [
      'https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX',
      'https://hooks.slack.com/services/',
      'https://api.slack.com/messaging/webhooks',
      'https://hooks.slack.com/services/T{{A36:10}}/B{{A36:10}}/short',
      'https://hooks.example.com/services/T{{A36:10}}/B{{A36:10}}/{{b62:24}}',
    ],
  },
  slack_token: {
    positives: [
      'xoxb-{{d:12}}-{{d:13}}-{{b62:24}}',
      'SLACK_BOT_TOKEN=xoxb-{{d:11}}-{{d:13}}-{{b62:24}}',
      'xoxp-{{d:12}}-{{d:12}}-{{d:13}}-{{hex:32}}',
      'xoxa-2-{{d:12}}-{{d:12}}-{{b62:40}}',
      'xoxs-{{d:12}}-{{d:12}}-{{d:12}}-{{hex:64}}',
      'xoxr-{{b62:40}}',
    ],
    negatives: [
      'xoxb-your-token-here',
      'xoxb-XXXXXXXXXXXX-XXXXXXXXXXXXX-XXXXXXXXXXXXXXXXXXXXXXXX',
      'xoxb-123456789012-1234567890123-XXXXXXXXXXXXXXXXXXXXXXXX',
      'xoxz-{{d:12}}-{{d:13}}-{{b62:24}}',
      'Bot tokens start with xoxb- and user tokens with xoxp-.',
    ],
  },
  stripe_key: {
    positives: ['sk_live_{{b62:24}}', 'sk_test_{{b62:99}}', 'rk_live_{{b62:34}}', 'rk_test_{{b62:24}}', 'STRIPE_SECRET_KEY=sk_live_{{b62:34}}'],
    negatives: [
      'sk_live_xxxxxxxxxxxxxxxxxxxxxxxx',
      'pk_live_{{b62:24}}',
      'sk_live_{{b62:10}}',
      'sk_prod_{{b62:24}}',
      'Stripe secret keys start with sk_live_ or sk_test_.',
    ],
  },
  anthropic_key: {
    positives: [
      'sk-ant-api03-{{b64url:93}}AA',
      'ANTHROPIC_API_KEY=sk-ant-api03-{{b64url:93}}AA',
      'sk-ant-admin01-{{b64url:93}}AA',
      'sk-ant-oat01-{{b64url:80}}',
      'sk-ant-{{b62:40}}',
    ],
    negatives: [
      'sk-ant-api03-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
      'sk-ant-',
      'sk-ant-api03-{{b62:10}}',
      'sk-ant-api03-YOUR-ANTHROPIC-KEY-GOES-HERE-0000000000000',
      'Anthropic keys begin with sk-ant-api03- and are shown once.',
    ],
  },
  openai_key: {
    positives: [
      'sk-{{b62:48}}',
      'sk-proj-{{b64url:156}}',
      'OPENAI_API_KEY=sk-{{b62:20}}T3BlbkFJ{{b62:20}}',
      'sk-svcacct-{{b64url:120}}',
      'key sk-admin-{{b64url:80}} rotated?',
    ],
    negatives: [
      'sk-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
      'sk-{{b62:20}}',
      'task-manager-refactor-notes-for-the-whole-team-and-more',
      'sk-learn-style-estimators-with-pipelines-and-grid-search',
      'sk-your-openai-api-key-goes-here-please-0000000000',
    ],
  },
  google_api_key: {
    positives: [
      'AIza{{b64url:35}}',
      'GOOGLE_API_KEY=AIza{{b64url:35}}',
      'https://maps.googleapis.com/maps/api/js?key=AIza{{b64url:35}}&callback=init',
      '"apiKey": "AIza{{b64url:35}}"',
      'key AIza{{b64url:35}}, restricted to the Maps API',
    ],
    negatives: ['AIzaXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX', 'AIza{{b64url:30}}', 'aiza{{b64url:35}}', 'AIza{{b64url:36}}', 'Google API keys start with AIza.'],
  },
  jwt: {
    positives: [
      '{{jwt_hs256}}',
      'Authorization: Bearer {{jwt_rs256}}',
      'token={{jwt_es256}}&next=/',
      '{{jwt_spaced_header}}',
      'cookie session={{jwt_hs256}}; Path=/',
    ],
    negatives: [
      '{{jwt_noalg}}',
      '{{jwt_unsigned}}',
      'eyJhbGciOiJIUzI1NiJ9 is just a header',
      'version 1.22.333 of lib.module.name',
      'see config.production.environment_override_for_tests',
    ],
  },
  svc_api_key: {
    positives: [
      'svc_{{b62:40}}',
      'Authorization: Bearer svc_{{b62:40}}',
      'curl -H "authorization: Bearer svc_{{b62:40}}" https://svc.example/v1/me',
      'SVC_KEY=svc_{{b62:40}}',
      '`svc_{{b62:40}}`',
    ],
    negatives: [
      'svc_{{b62:39}}',
      'svc_{{b62:41}}',
      'svc_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
      'svc_api_key',
      'Keys look like svc_ followed by 40 base62 characters.',
    ],
  },
};
