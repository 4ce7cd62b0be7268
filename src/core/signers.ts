/**
 * The public keys a page pins to check the service's signed bundles and envelopes (DESIGN.md
 * "Target bundles are verified against a pinned signer key", wire format 2), in a module of their
 * own so that pinning them costs a page nothing more than the keys. Re-exported by bundles.ts.
 *
 * Deliberately only constants: the checks against them are bundles.ts's.
 */

/** Production signer of OTP target bundles (the enclave key of DESIGN.md wire format 2). */
export const PRODUCTION_OTP_SIGNER =
  '046b4f88421f76b6ba418afc2ea1d8ced671337d7db6b80478a60d8531bf8f17fa9a512f0fef96fc0c9b4cd9dff70b34992e520ce04c79d931f6ff6296b547d201';
/** Production signer of wallet export envelopes (DESIGN.md wire format 2). */
export const PRODUCTION_EXPORT_SIGNER =
  '04cf288fe433cc4e1aa0ce1632feac4ea26bf2f5a09dcfe5a42c398e06898710330f0572882f4dbdf0f5304b8fc8703acd69adca9a4bbf7f5d00d20a5e364b2569';
/**
 * The local sandbox's published signer (public key of the scalar SHA-256("wallet-elements sandbox
 * signer v1")), the same value as `SANDBOX_SIGNER_PUBLIC_KEY` of src/sandbox/signer.ts. A test key:
 * never pin it in production.
 */
export const SANDBOX_SIGNER_PUBLIC_KEY =
  '04f35c501425fa163eab52a6ce1322bcd91bfcf6d49ceb108779e4bffebceab0b080c4e3868e2ff0ae69d47111fe2c6cd41ef38ed72b05c3ce700e1b9a6a82b9c8';
