/** The header the app's server (scripts/app-server.ts) sets to the client's address it decided; clients cannot set it. */
export const CLIENT_IP_HEADER = "x-kule-client-ip";
