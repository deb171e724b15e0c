"use client";

import type { ReactNode } from "react";
import { useTranslations } from "use-intl";
import { Loading } from "./field";

/**
 * Query options for a query whose panel shows its own loading, error and empty states through
 * QueryState or queryGate: its errors are not toasted as well (errors reach the user once).
 */
export const PANEL_QUERY = { meta: { handlesErrors: true } } as const;

/** The part of a query (plain or infinite, tRPC's or not) these read. */
interface QueryLike<T> {
  isPending: boolean;
  isError: boolean;
  data: T | undefined;
  error: { message: string; data?: { code?: string } | null } | null;
  refetch: () => unknown;
}

/**
 * What to show instead of a query's data while it has none: loading, "not found" (when the
 * server said NOT_FOUND and `notFound` is given), or the error with a way to retry. Null once
 * there is data. A failed load is never shown as "nothing yet".
 */
export function queryGate<T>(query: QueryLike<T>, what: string, notFound?: ReactNode): ReactNode | null {
  if (query.isPending) return <Loading what={what} />;
  if (query.data !== undefined) return null;
  if (notFound && query.error?.data?.code === "NOT_FOUND") return notFound;
  return <LoadFailed what={what} message={query.error?.message} retry={() => void query.refetch()} />;
}

function LoadFailed({ what, message, retry }: { what: string; message: string | undefined; retry: () => void }) {
  const t = useTranslations("common");
  return (
    <div className="empty" role="alert" aria-label={t("couldNotLoad", { what })}>
      <b>{t("couldNotLoad", { what })}</b>
      <span>{message ?? t("serverDidNotAnswer")}</span>
      <button type="button" onClick={retry}>
        {t("tryAgain")}
      </button>
    </div>
  );
}

/**
 * A panel's query: loading, the error, the empty state, or the data. A failed refresh keeps the
 * data on screen and says it is stale.
 */
export function QueryState<T>({ query, what, isEmpty, empty, children }: { query: QueryLike<T>; what: string; isEmpty?: (data: T) => boolean; empty?: ReactNode; children: (data: T) => ReactNode }) {
  const t = useTranslations("common");
  const gate = queryGate(query, what);
  if (gate || query.data === undefined) return <>{gate}</>;
  const data = query.data;
  const nothing = isEmpty ? isEmpty(data) : Array.isArray(data) && data.length === 0;
  return (
    <>
      {query.isError && (
        <p className="notice" role="status">
          {t("couldNotRefresh", { what, reason: query.error?.message ?? "" })}
        </p>
      )}
      {nothing ? empty : children(data)}
    </>
  );
}
