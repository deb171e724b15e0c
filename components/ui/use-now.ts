"use client";

import { useSyncExternalStore } from "react";

// One shared clock, ticking each second while something on the page shows a countdown.
function subscribe(onTick: () => void) {
  const t = setInterval(onTick, 1000);
  return () => clearInterval(t);
}
const snapshot = () => Math.floor(Date.now() / 1000) * 1000;
const serverSnapshot = () => 0;

/** The current time to the second, re-rendering the caller as it advances. */
export function useNow(): number {
  return useSyncExternalStore(subscribe, snapshot, serverSnapshot);
}
