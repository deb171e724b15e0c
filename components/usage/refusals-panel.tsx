import { formatDateTime } from "@/components/ui/format";

interface Refusal {
  limit: string;
  label: string;
  calls: number;
  lastAt: Date | string | null;
}

/** Calls the gateway refused for a limit in the period, by which limit: what to raise, or what to slow down. */
export function RefusalsPanel({ refusals, days }: { refusals: Refusal[]; days: number }) {
  return (
    <div className="panel" data-testid="refusals">
      <h2>Refused by a limit</h2>
      {refusals.length === 0 ? (
        <p className="muted">No call was refused for a limit in the last {days === 1 ? "day" : `${days} days`}.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th>Limit</th>
              <th>Calls refused (429)</th>
              <th>Last refused</th>
            </tr>
          </thead>
          <tbody>
            {refusals.map((r) => (
              <tr key={r.limit}>
                <td>{r.label}</td>
                <td>{r.calls.toLocaleString("tr-TR")}</td>
                <td>{r.lastAt ? formatDateTime(r.lastAt) : "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
