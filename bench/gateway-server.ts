/** A gateway process for benchmarks: prints {"url"} once listening. */
import os from "node:os";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { Gateway } from "../server/gateway/server.ts";

const databaseUrl = process.env.BENCH_DATABASE_URL!;
const pool = new pg.Pool({ connectionString: databaseUrl, max: 8 });
const gateway = new Gateway({ pool, databaseUrl, spoolDir: fs.mkdtempSync(path.join(os.tmpdir(), "kule-bench-spool-")), maxBodyBytes: 1 << 20 });
const url = await gateway.listen(0);
console.log(JSON.stringify({ url }));
process.on("SIGTERM", () => void gateway.close().then(() => process.exit(0)));
