import { once } from "node:events";
import type pg from "pg";
import { to as copyTo } from "pg-copy-streams";

type Client = pg.PoolClient | pg.Client;

/** A running COPY … TO STDOUT: its bytes as a stream, and its row count once PostgreSQL has confirmed it. */
export interface CopyOut {
  stream: AsyncIterable<Buffer> & NodeJS.ReadableStream;
  /** Call after the stream has ended. */
  rowCount(): Promise<number>;
}

/**
 * Starts a COPY … TO STDOUT on `client`. The stream ends at PostgreSQL's CopyDone, but the row
 * count comes in the CommandComplete message after it, which may arrive in a later packet: read
 * straight after the stream ends, pg-copy-streams' `rowCount` is then still 0 (a sealed hour read
 * as "rows missing", an export's manifest short of its rows). The count is final once the
 * connection is ready for a query again: at once if it already is, else at the client's 'drain'.
 * (Queuing a query behind the COPY waited as well, but pg deprecates queuing and pg@9 refuses it.)
 */
export function copyOut(client: Client, sql: string): CopyOut {
  const copy = client.query(copyTo(sql));
  return {
    stream: copy as unknown as CopyOut["stream"],
    rowCount: async () => {
      if (!(client as Client & { readyForQuery?: boolean }).readyForQuery) await once(client, "drain");
      return copy.rowCount;
    },
  };
}
