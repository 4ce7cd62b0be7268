/**
 * A software WebAuthn authenticator for Node tests of the proxy against the sandbox: it makes the
 * `none`-attestation registration and the assertion a browser would (W3C WebAuthn Level 3 §6.1
 * authenticator data, §6.5.4 attestation object, §8.7 "none" format; RFC 8949 CBOR; RFC 9053 COSE
 * EC2 key), with a P-256 key from node:crypto, so that the relay of real ceremonies is tested
 * without a browser. The browser suites use Chromium's virtual authenticator instead.
 *
 * Deliberately minimal: ES256 only, the CBOR subset that the attestation object needs.
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import type { PasskeyAssertion, PasskeyAttestation } from '../../../src/core/types.ts';

type Cbor = number | string | Uint8Array | Map<Cbor, Cbor> | Cbor[];

function head(major: number, n: number): Buffer {
  if (n < 24) return Buffer.from([(major << 5) | n]);
  if (n < 0x100) return Buffer.from([(major << 5) | 24, n]);
  if (n < 0x10000) return Buffer.from([(major << 5) | 25, n >> 8, n & 0xff]);
  const b = Buffer.alloc(5);
  b[0] = (major << 5) | 26;
  b.writeUInt32BE(n, 1);
  return b;
}

/** Canonical-enough CBOR for maps of small ints, text and byte strings (RFC 8949 §3). */
export function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const b = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, b.length), b]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  if (Array.isArray(value)) return Buffer.concat([head(4, value.length), ...value.map(cbor)]);
  const parts: Buffer[] = [head(5, value.size)];
  for (const [k, v] of value) parts.push(cbor(k), cbor(v));
  return Buffer.concat(parts);
}

const sha256 = (b: Uint8Array | string) => createHash('sha256').update(b).digest();

export class SoftAuthenticator {
  readonly credentialId = randomBytes(32);
  readonly #privateKey: KeyObject;
  readonly #cose: Buffer;
  #counter = 0;

  constructor(
    readonly rpId: string,
    readonly origin: string,
  ) {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.#privateKey = privateKey;
    const jwk = publicKey.export({ format: 'jwk' });
    // COSE_Key EC2: kty 2, alg -7 (ES256), crv 1 (P-256), x, y (RFC 9053 §7.1.1).
    this.#cose = cbor(
      new Map<Cbor, Cbor>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    );
  }

  get credentialIdB64(): string {
    return this.credentialId.toString('base64url');
  }

  /** navigator.credentials.create() with `challenge` (base64url, as in the creation options). */
  register(challenge: string, rpId = this.rpId): PasskeyAttestation {
    const clientData = Buffer.from(JSON.stringify({ type: 'webauthn.create', challenge, origin: this.origin, crossOrigin: false }));
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const authData = Buffer.concat([
      sha256(rpId),
      Buffer.from([0x45]), // UP | UV | AT
      Buffer.alloc(4), // signCount 0
      Buffer.alloc(16), // AAGUID
      idLength,
      this.credentialId,
      this.#cose,
    ]);
    const attestationObject = cbor(
      new Map<Cbor, Cbor>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]),
    );
    return {
      credentialId: this.credentialIdB64,
      clientDataJson: clientData.toString('base64url'),
      attestationObject: attestationObject.toString('base64url'),
      transports: ['internal'],
    };
  }

  /** navigator.credentials.get() over the UTF-8 bytes of the service's hex challenge. */
  assert(hexChallenge: string): PasskeyAssertion {
    this.#counter++;
    const clientData = Buffer.from(
      JSON.stringify({ type: 'webauthn.get', challenge: Buffer.from(hexChallenge, 'utf8').toString('base64url'), origin: this.origin, crossOrigin: false }),
    );
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(this.#counter);
    const authData = Buffer.concat([sha256(this.rpId), Buffer.from([0x05]), counter]);
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientData)]), this.#privateKey);
    return {
      credentialId: this.credentialIdB64,
      clientDataJson: clientData.toString('base64url'),
      authenticatorData: authData.toString('base64url'),
      signature: signature.toString('base64url'),
    };
  }
}
