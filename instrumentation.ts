// Next calls register() once when a server process starts (never during `next build`).
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { startBackground } = await import("./server/background");
    startBackground();
  }
}
