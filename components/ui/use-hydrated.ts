import { useSyncExternalStore } from "react";

const noSubscription = () => () => {};

/**
 * false on the server and while hydrating (the same HTML), true after. A control whose only handler is React's is
 * disabled until then: a click before hydration would be lost.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}
