/**
 * A software WebAuthn authenticator for node tests of the sandbox: a P-256 (ES256) credential,
 * `none` attestation, authenticator data and a hand-written CBOR encoder (RFC 8949 §3: unsigned and
 * negative integers, byte and text strings, maps), following W3C WebAuthn Level 3 §6.1 (authenticator
 * data), §6.5.4 (attestation object), §5.8.1 (client data) and RFC 9053 §2.1 / RFC 9052 §7 (COSE
 * EC2 key). The browser ceremony with Chromium's virtual authenticator is tested elsewhere.
 *
 * Deliberately not here: other algorithms, extensions, resident-key storage.
 */
import { base64urlEncode, concatBytes, sha256, utf8Encode } from '../../../src/core/encoding.ts';
import { signatureToDer } from '../../../src/core/p256.ts';
import type { PasskeyAssertion, PasskeyAttestation } from '../../../src/core/types.ts';

type Cbor = number | Uint8Array | string | Map<Cbor, Cbor>;

function head(major: number, n: number): Uint8Array {
  if (n < 24) return Uint8Array.of((major << 5) | n);
  if (n < 256) return Uint8Array.of((major << 5) | 24, n);
  if (n < 65536) return Uint8Array.of((major << 5) | 25, n >> 8, n & 0xff);
  return Uint8Array.of((major << 5) | 26, (n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff);
}

export function cbor(value: Cbor): Uint8Array {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const b = utf8Encode(value);
    return concatBytes(head(3, b.length), b);
  }
  if (value instanceof Uint8Array) return concatBytes(head(2, value.length), value);
  const parts: Uint8Array[] = [head(5, value.size)];
  for (const [k, v] of value) parts.push(cbor(k), cbor(v));
  return concatBytes(...parts);
}

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

function u32(n: number): Uint8Array {
  return Uint8Array.of((n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff);
}

export interface ClientOverrides {
  origin?: string;
  type?: string;
  rpId?: string;
  flags?: number;
  /** Signature counter to report (default: the internal counter, incremented per assertion). */
  counter?: number;
  /** Flip a byte of the signature. */
  corruptSignature?: boolean;
}

export class SoftAuthenticator {
  readonly credentialId: Uint8Array;
  private counter = 0;

  private constructor(
    private readonly keys: CryptoKeyPair,
    private readonly x: Uint8Array,
    private readonly y: Uint8Array,
    readonly rpId: string,
    readonly origin: string,
  ) {
    this.credentialId = crypto.getRandomValues(new Uint8Array(16));
  }

  static async create(opts: { rpId?: string; origin?: string } = {}): Promise<SoftAuthenticator> {
    const keys = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
    const raw = new Uint8Array(await crypto.subtle.exportKey('raw', keys.publicKey));
    return new SoftAuthenticator(keys, raw.slice(1, 33), raw.slice(33), opts.rpId ?? 'localhost', opts.origin ?? 'http://localhost:8080');
  }

  get credentialIdB64(): string {
    return base64urlEncode(this.credentialId);
  }

  private async authData(flags: number, counter: number, rpId: string, attested?: Uint8Array): Promise<Uint8Array> {
    const rpIdHash = await sha256(utf8Encode(rpId));
    return concatBytes(rpIdHash, Uint8Array.of(flags), u32(counter), attested ?? new Uint8Array(0));
  }

  private clientData(type: string, challengeB64: string, origin: string): Uint8Array {
    return utf8Encode(JSON.stringify({ type, challenge: challengeB64, origin, crossOrigin: false }));
  }

  /** navigator.credentials.create() with `none` attestation; `challenge` is the base64url option. */
  async register(challenge: string, o: ClientOverrides = {}): Promise<PasskeyAttestation> {
    const coseKey = cbor(new Map<Cbor, Cbor>([[1, 2], [3, -7], [-1, 1], [-2, this.x], [-3, this.y]]));
    const attested = concatBytes(new Uint8Array(16), Uint8Array.of(this.credentialId.length >> 8, this.credentialId.length & 0xff), this.credentialId, coseKey);
    const authData = await this.authData(o.flags ?? FLAG_UP | FLAG_UV | FLAG_AT, o.counter ?? 0, o.rpId ?? this.rpId, attested);
    const attestationObject = cbor(new Map<Cbor, Cbor>([['fmt', 'none'], ['attStmt', new Map()], ['authData', authData]]));
    return {
      credentialId: this.credentialIdB64,
      clientDataJson: base64urlEncode(this.clientData(o.type ?? 'webauthn.create', challenge, o.origin ?? this.origin)),
      attestationObject: base64urlEncode(attestationObject),
      transports: ['internal'],
    };
  }

  /** navigator.credentials.get(); `challengeBytes` are the WebAuthn challenge bytes. */
  async assert(challengeBytes: Uint8Array, o: ClientOverrides = {}): Promise<PasskeyAssertion> {
    const counter = o.counter ?? ++this.counter;
    const authData = await this.authData(o.flags ?? FLAG_UP | FLAG_UV, counter, o.rpId ?? this.rpId);
    const clientDataJson = this.clientData(o.type ?? 'webauthn.get', base64urlEncode(challengeBytes), o.origin ?? this.origin);
    const signed = concatBytes(authData, await sha256(clientDataJson));
    const raw = new Uint8Array(await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, this.keys.privateKey, signed));
    const der = signatureToDer(raw);
    if (o.corruptSignature) der[der.length - 1] = der[der.length - 1]! ^ 0x01;
    return {
      credentialId: this.credentialIdB64,
      clientDataJson: base64urlEncode(clientDataJson),
      authenticatorData: base64urlEncode(authData),
      signature: base64urlEncode(der),
    };
  }
}
