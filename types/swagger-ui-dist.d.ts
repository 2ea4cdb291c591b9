declare module "swagger-ui-dist" {
  /** Absolute path of the folder holding swagger-ui-bundle.js and swagger-ui.css. */
  export function getAbsoluteFSPath(): string;
}
