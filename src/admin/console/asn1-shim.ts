// A workaround for the installed dependency tree (package-lock.json): @simplewebauthn/server
// parses an ES256 signature with the top-level @peculiar/asn1-schema (2.8.0) but takes the
// ECDSASigValue type from @peculiar/asn1-ecc, whose decorators registered it with its own nested
// copy (2.11.1). The top-level parser then knows no schema for it and every ES256 passkey sign-in
// fails ("Cannot get schema for 'ECDSASigValue' target"). Declaring the same two INTEGER fields
// with the top-level copy's decorator registers the type there too; once the tree is deduplicated
// (one asn1-schema) this declares again what is already declared, which changes nothing.
import { ECDSASigValue } from '@peculiar/asn1-ecc';
import { AsnIntegerArrayBufferConverter, AsnProp, AsnPropTypes } from '@peculiar/asn1-schema';

for (const field of ['r', 's'] as const) AsnProp({ type: AsnPropTypes.Integer, converter: AsnIntegerArrayBufferConverter })(ECDSASigValue.prototype, field);
