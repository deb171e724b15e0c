/**
 * The app's HTTP server (`npm start`, the demo, the end-to-end tests, the dashboard bench): Next's
 * request handler behind one rule for the client's address. Next passes X-Forwarded-For on as the
 * client sent it (filling it from the socket only when absent), so a browser could choose the
 * address written into the audit log. Here the address is decided from the socket and the trusted
 * proxies (server/http/client-ip.ts, KULE_TRUSTED_PROXIES) and handed to the app as
 * X-Kule-Client-Ip, replacing whatever a client sent under that name.
 *
 *   tsx scripts/app-server.ts [-p 3000] [-H 127.0.0.1]
 */
import http from "node:http";
import path from "node:path";
import next from "next";
import { trustedProxiesOf } from "../server/http/client-ip.ts";
import { CLIENT_IP_HEADER } from "../server/http/client-ip-header.ts";

const arg = (flag: string) => {
  const i = process.argv.indexOf(flag);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const port = Number(arg("-p") ?? process.env.PORT ?? 3000);
const hostname = arg("-H") ?? "127.0.0.1";
const trusted = trustedProxiesOf(process.env.KULE_TRUSTED_PROXIES);

async function main() {
  const app = next({ dev: false, dir: path.resolve(import.meta.dirname, ".."), hostname, port });
  const handle = app.getRequestHandler();
  await app.prepare();
  const server = http.createServer((req, res) => {
    req.headers[CLIENT_IP_HEADER] = trusted.clientIp(req.socket.remoteAddress, req.headers["x-forwarded-for"]) ?? "";
    void handle(req, res);
  });
  server.listen(port, hostname, () => console.log(`Kule on http://${hostname}:${port}`));
  const stop = () => server.close(() => process.exit(0));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
