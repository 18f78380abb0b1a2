import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { SESSION_KEY_BYTES } from './session-key';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Seals upstream tokens for the session table with AES-256-GCM: a fresh random IV per value,
 * and the row's key (the session id's hash) as associated data, so a sealed token copied into
 * another row does not open there. Stored as `v1.<iv>.<tag>.<ciphertext>` (base64url).
 * A value that does not open (another key, tampered, a plain token from before) reads as none.
 */
export class TokenCipher {
  constructor(private readonly key: Buffer) {
    if (key.length !== SESSION_KEY_BYTES) throw new Error('The session key must be 32 bytes');
  }

  seal(token: string, boundTo: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(boundTo, 'utf8'));
    const sealed = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
    const parts = [iv, cipher.getAuthTag(), sealed].map((b) => b.toString('base64url'));
    return [VERSION, ...parts].join('.');
  }

  open(value: string, boundTo: string): string | null {
    const [version, iv, tag, sealed, ...rest] = value.split('.');
    if (version !== VERSION || sealed === undefined || rest.length > 0) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'), {
        authTagLength: TAG_BYTES,
      });
      decipher.setAAD(Buffer.from(boundTo, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([
        decipher.update(Buffer.from(sealed, 'base64url')),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      return null;
    }
  }
}
