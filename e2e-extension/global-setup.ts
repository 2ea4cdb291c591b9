import { buildExtension } from "../scripts/build-extension";

/** The extension the tests load is the one built from this checkout, each run. */
export default async function globalSetup() {
  await buildExtension();
}
