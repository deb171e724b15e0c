const TONE: Record<string, string> = {
  ready: "badge-ok",
  pending: "badge-warn",
  loading: "badge-warn",
  draining: "badge-warn",
  not_ready: "badge-warn",
  failed: "badge-danger",
  down: "badge-danger",
};

/** A replica's, version's or node's state as a coloured badge: green serving, amber in between, red broken. */
export function StateBadge({ state, title }: { state: string; title?: string }) {
  return (
    <span className={`badge ${TONE[state] ?? ""}`} title={title}>
      {state}
    </span>
  );
}
