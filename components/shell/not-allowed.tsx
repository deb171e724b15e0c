import Link from "next/link";

export function NotAllowed({ what }: { what: string }) {
  return (
    <div className="not-allowed panel" role="region" aria-label="Not allowed">
      <h1>Not allowed</h1>
      <p className="muted">Your role cannot open {what}. If you need it, ask an admin to change your role.</p>
      <Link href="/">Back to the overview</Link>
    </div>
  );
}
