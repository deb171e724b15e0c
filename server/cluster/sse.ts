/**
 * Reads a server-sent-events stream and calls `onData` with each event's data, reconnecting
 * after a drop (with a short back-off) until `signal` aborts.
 */
export async function followSse(url: string, onData: (data: string) => void, signal: AbortSignal, onConnect?: () => void): Promise<void> {
  while (!signal.aborted) {
    try {
      const res = await fetch(url, { signal, headers: { accept: "text/event-stream" } });
      if (!res.ok || !res.body) throw new Error(`${url} answered ${res.status}`);
      onConnect?.();
      const decoder = new TextDecoder();
      let buf = "";
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buf += decoder.decode(chunk, { stream: true });
        let cut: number;
        while ((cut = buf.indexOf("\n\n")) >= 0) {
          const block = buf.slice(0, cut);
          buf = buf.slice(cut + 2);
          const data = block
            .split("\n")
            .filter((l) => l.startsWith("data: "))
            .map((l) => l.slice(6))
            .join("\n");
          if (data) onData(data);
        }
      }
    } catch {
      if (signal.aborted) return;
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
}
