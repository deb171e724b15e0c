"use client";

import type { ReactNode } from "react";

/**
 * The keyboard's way into an expandable table row: a button in the row's first cell that says
 * whether the row is open. The row itself may also toggle on a mouse click; the button stops
 * that click so one press toggles once.
 */
export function RowToggle({ open, onToggle, label, children }: { open: boolean; onToggle: () => void; label: string; children: ReactNode }) {
  return (
    <button
      type="button"
      className="row-toggle"
      aria-expanded={open}
      onClick={(e) => {
        e.stopPropagation();
        onToggle();
      }}
    >
      {/* Its name is the label then the visible text, so a voice command saying what is seen still finds it. */}
      <span aria-hidden="true">{open ? "▾" : "▸"}</span> <span className="sr-only">{label}: </span>
      {children}
    </button>
  );
}
