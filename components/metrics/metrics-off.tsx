/** Says why charts are missing and how to turn metrics on, instead of drawing empty charts. */
export function MetricsOff({ reason, what = "Metrics" }: { reason?: string; what?: string }) {
  return (
    <div className="form-error" role="note" data-testid="metrics-off">
      <b>{what} are off.</b> {reason} Install Prometheus (Debian/Ubuntu: <code>sudo apt-get install -y prometheus</code>; macOS: <code>brew install prometheus</code>) and
      restart <code>npm run demo</code>.
    </div>
  );
}
