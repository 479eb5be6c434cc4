/** What happens for one topic's subscribers after a publish. */
export type TopicOutcome = "unchanged" | "notifying" | "already-notified";

/**
 * `changedSinceLastPing`: the topic's content differs from what this publisher last told the hub.
 * `distributing`: the hub said it is distributing it now. A changed topic the hub did not call new
 * had already been distributed: the sidecar picked the build up on its own before the ping.
 */
export function topicOutcome(changedSinceLastPing: boolean, distributing: boolean): TopicOutcome {
  if (!changedSinceLastPing) return "unchanged";
  return distributing ? "notifying" : "already-notified";
}

const WORDS: Record<TopicOutcome, string> = {
  unchanged: "unchanged, subscribers are not notified",
  notifying: "changed, subscribers are being notified",
  "already-notified": "changed, subscribers were already notified (the sidecar had picked this build up on its own)",
};

export function describeTopic(topic: string, outcome: TopicOutcome): string {
  return `  ${topic}: ${WORDS[outcome]}`;
}
