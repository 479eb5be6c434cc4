import pRetry from "p-retry";

export interface PingAnswer {
  status: number;
  text: string;
}

/** The hub refused or never answered: the message says which, with the hub's URL. */
export class PingError extends Error {
  override name = "PingError";
}

/**
 * One hub.mode=publish ping, retried (with back-off) while the hub is unreachable or answers 5xx
 * or 429; a 4xx answer is a refusal and is not retried.
 */
export async function pingHub(
  hubUrl: string,
  topic: string,
  options: { token?: string | undefined; attempts: number },
): Promise<PingAnswer> {
  let answer: PingAnswer;
  try {
    answer = await pRetry(
      async () => {
        const response = await fetch(hubUrl, {
          method: "POST",
          headers: {
            "content-type": "application/x-www-form-urlencoded",
            ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
          },
          body: new URLSearchParams({ "hub.mode": "publish", "hub.url": topic }),
          signal: AbortSignal.timeout(10_000),
        });
        const text = await response.text();
        if (response.status >= 500 || response.status === 429)
          throw new Error(`hub answered ${response.status}: ${text}`);
        return { status: response.status, text };
      },
      {
        retries: options.attempts - 1,
        minTimeout: 500,
        maxTimeout: 5_000,
        onFailedAttempt: ({ error, attemptNumber, retriesLeft }) =>
          console.error(`Ping for ${topic} failed (attempt ${attemptNumber}, ${retriesLeft} left): ${error.message}`),
      },
    );
  } catch (error) {
    throw new PingError(
      `The hub at ${hubUrl} never answered (${(error as Error).message}). The build is published; start the sidecar (it distributes changes it finds at start-up) or run npm run publish again.`,
    );
  }
  if (answer.status >= 400)
    throw new PingError(`The hub refused the ping for ${topic}: ${answer.status} ${answer.text}`);
  return answer;
}

/** Topics a hub's answer says it is distributing ("Accepted: distributing A, B"). */
export function distributedTopics(answer: string): string[] {
  const prefix = "Accepted: distributing ";
  return answer.startsWith(prefix) ? answer.slice(prefix.length).split(", ") : [];
}
