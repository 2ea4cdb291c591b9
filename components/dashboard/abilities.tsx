"use client";

import { createContext, useContext, type ReactNode } from "react";

/**
 * What the person's role in the current workspace lets the dashboard offer, worked out on the server from the
 * permission table the API enforces (app/dashboard/layout.tsx), so a control is shown only where its request
 * would be accepted. Outside a provider (a component alone in a test) everything is offered: the API decides.
 */
export interface Abilities {
  /** POST /v1/transcript: the Transcribe form, Retry. */
  transcribe: boolean;
  /** POST /v1/publish and DELETE /v1/publish/{slug}. */
  publish: boolean;
  /** Corrections: Edit, a paragraph's Edit, restoring a version. */
  edit: boolean;
  /** DELETE /v1/me/transcriptions/{id}. */
  delete: boolean;
}

export const ALL_ABILITIES: Abilities = { transcribe: true, publish: true, edit: true, delete: true };

const AbilitiesContext = createContext<Abilities>(ALL_ABILITIES);

export function AbilitiesProvider({ abilities, children }: { abilities: Abilities; children: ReactNode }) {
  return <AbilitiesContext.Provider value={abilities}>{children}</AbilitiesContext.Provider>;
}

export function useAbilities(): Abilities {
  return useContext(AbilitiesContext);
}
