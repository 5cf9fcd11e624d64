// Verification of Jangada webhook deliveries, the rules of webhook/verify
// (Go) in Web Crypto, so that it runs in Node.js 20 and in any runtime
// with crypto.subtle. HMAC verification through crypto.subtle.verify
// compares in constant time.

/** Why a delivery was refused. */
export type WebhookErrorCode = "missing_header" | "bad_secret" | "signature" | "timestamp";

/** A delivery that does not verify. */
export class WebhookVerificationError extends Error {
  constructor(readonly code: WebhookErrorCode, message: string) {
    super(message);
    this.name = "WebhookVerificationError";
  }
}

/** The headers of a delivery: a Headers, or Node's IncomingHttpHeaders. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

/** The replay window when none is given: 5 minutes. */
export const defaultToleranceSeconds = 300;

/**
 * Checks a delivery with the endpoint's whsec_ secret: x-jangada-signature
 * (sha256= and the hex HMAC-SHA256 of the raw body, keyed with the whole
 * secret string), the Standard Webhooks webhook-signature (v1, and the
 * base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}", keyed
 * with the base64-decoded bytes after whsec_; one valid v1 among several
 * is enough), and webhook-timestamp within the tolerance of now. body must
 * be the raw bytes received, never a re-serialised object. Throws a
 * WebhookVerificationError; deduplicate on the envelope's id afterwards.
 */
export async function verifyWebhook(
  secret: string,
  headers: WebhookHeaders,
  body: string | Uint8Array,
  opts: { toleranceSeconds?: number; now?: Date } = {},
): Promise<void> {
  if (!secret.startsWith("whsec_")) throw new WebhookVerificationError("bad_secret", "the secret must be the endpoint's whsec_ secret");
  let key: Uint8Array;
  try {
    key = base64(secret.slice("whsec_".length));
  } catch {
    throw new WebhookVerificationError("bad_secret", "the secret must be the endpoint's whsec_ secret");
  }
  if (key.length === 0) throw new WebhookVerificationError("bad_secret", "the secret must be the endpoint's whsec_ secret");
  const id = header(headers, "webhook-id");
  const ts = header(headers, "webhook-timestamp");
  const sigs = header(headers, "webhook-signature");
  const legacy = header(headers, "x-jangada-signature");
  if (!id || !ts || !sigs || !legacy) throw new WebhookVerificationError("missing_header", "missing webhook signature headers");
  const tolerance = opts.toleranceSeconds && opts.toleranceSeconds > 0 ? opts.toleranceSeconds : defaultToleranceSeconds;
  const now = Math.floor((opts.now ?? new Date()).getTime() / 1000);
  if (!/^-?\d+$/.test(ts) || Math.abs(now - Number(ts)) > tolerance) {
    throw new WebhookVerificationError("timestamp", "timestamp outside the tolerance");
  }
  const raw = typeof body === "string" ? new TextEncoder().encode(body) : body;
  const hex = legacy.toLowerCase().replace(/^sha256=/, "");
  if (!legacy.toLowerCase().startsWith("sha256=") || !/^[0-9a-f]{64}$/.test(hex) ||
    !(await hmacVerify(new TextEncoder().encode(secret), fromHex(hex), raw))) {
    throw new WebhookVerificationError("signature", "signature mismatch");
  }
  const signed = concat(new TextEncoder().encode(`${id}.${ts}.`), raw);
  for (const s of sigs.split(/\s+/)) {
    const [version, sig] = s.split(",", 2);
    if (version !== "v1" || !sig) continue;
    let got: Uint8Array;
    try {
      got = base64(sig);
    } catch {
      continue;
    }
    if (await hmacVerify(key, got, signed)) return;
  }
  throw new WebhookVerificationError("signature", "signature mismatch");
}

function header(h: WebhookHeaders, name: string): string {
  if (typeof (h as Headers).get === "function") return (h as Headers).get(name) ?? "";
  const v = (h as Record<string, string | string[] | undefined>)[name] ??
    Object.entries(h as Record<string, string | string[] | undefined>).find(([k]) => k.toLowerCase() === name)?.[1];
  return Array.isArray(v) ? (v[0] ?? "") : (v ?? "");
}

// hmacVerify copies its inputs into plain ArrayBuffers, as Web Crypto's
// types ask (a Node Buffer may sit on a shared pool).
async function hmacVerify(key: Uint8Array, signature: Uint8Array, data: Uint8Array): Promise<boolean> {
  const k = await crypto.subtle.importKey("raw", new Uint8Array(key), { name: "HMAC", hash: "SHA-256" }, false, ["verify"]);
  return crypto.subtle.verify("HMAC", k, new Uint8Array(signature), new Uint8Array(data));
}

function base64(s: string): Uint8Array {
  return Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
}

function fromHex(s: string): Uint8Array {
  const out = new Uint8Array(s.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(s.slice(2 * i, 2 * i + 2), 16);
  return out;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
