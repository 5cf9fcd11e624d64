// Retries of a 429, a 503 or a request that reached no server, after the
// answer's Retry-After or an exponential backoff with jitter, as the Go
// client does (client/retry.go).

/** How a client retries. */
export interface RetryOptions {
  /** How many times a 429, a 503 or a failed connection is retried (default 3; 0: never). */
  retries?: number;
  /** The first wait without a Retry-After, doubled at each retry (default 250 ms). */
  backoffMs?: number;
  /** The longest wait without a Retry-After (default 5 s). */
  maxBackoffMs?: number;
}

/** An answer's Retry-After (delay-seconds or an HTTP date) in milliseconds,
 * 0 when absent or malformed. */
export function retryAfterMs(value: string | null, now: number): number {
  if (!value) return 0;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) || at <= now ? 0 : at - now;
}

/**
 * A fetch that gives every POST an Idempotency-Key (a random one when the
 * caller set none: a retried create must find the first attempt's
 * resource, never make a second) and retries as RetryOptions says. Each
 * attempt sends a clone of the original request, whose body is never read.
 */
export function retryingFetch(next: typeof fetch, opts: RetryOptions = {}): (req: Request) => Promise<Response> {
  const retries = opts.retries ?? 3;
  const first = opts.backoffMs ?? 250;
  const max = opts.maxBackoffMs ?? 5000;
  return async (req: Request): Promise<Response> => {
    if (req.method === "POST" && !req.headers.has("Idempotency-Key")) {
      req.headers.set("Idempotency-Key", "ts-" + crypto.randomUUID());
    }
    let wait = first;
    for (let attempt = 0; ; attempt++) {
      let res: Response | undefined;
      let failure: unknown;
      try {
        res = await next(req.clone());
      } catch (err) {
        if (req.signal.aborted) throw err;
        failure = err;
      }
      const again = attempt < retries && (res === undefined || res.status === 429 || res.status === 503);
      if (!again) {
        if (res === undefined) throw failure;
        return res;
      }
      let pause = jitter(wait);
      if (res !== undefined) {
        const ra = retryAfterMs(res.headers.get("Retry-After"), Date.now());
        if (ra > 0) pause = ra;
        await res.body?.cancel();
      }
      wait = Math.min(2 * wait, max);
      await sleep(pause, req.signal);
    }
  };
}

// jitter is d give or take a quarter, so that clients turned away together
// do not come back together.
function jitter(d: number): number {
  return d <= 0 ? 0 : d * 0.75 + Math.random() * (d / 2);
}

// sleep waits ms, or rejects when signal aborts first.
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal.removeEventListener("abort", stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(t);
      reject(signal.reason);
    };
    signal.addEventListener("abort", stop, { once: true });
  });
}
