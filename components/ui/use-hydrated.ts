import { useEffect, useSyncExternalStore, type RefObject } from "react";

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

/**
 * For a controlled text input rendered on the server: what was typed into it before React hydrated (React keeps
 * the text in the box but not in state, so it would be lost on the next change or submit) is taken into state
 * once hydrated.
 */
export function useTypedBeforeHydration(
  ref: RefObject<HTMLInputElement | null>,
  value: string,
  setValue: (value: string) => void,
): void {
  useEffect(() => {
    const typed = ref.current?.value;
    if (typed !== undefined && typed !== value) setValue(typed);
    // Once, on hydration: later the input's changes come through its onChange.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}
