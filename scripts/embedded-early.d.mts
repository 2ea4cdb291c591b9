export declare const EARLY_WORKER_FILE: string;
export declare const EARLY_EMBEDDED: symbol;
/** `port`: the port the app will listen on, written into the data folder's lock. */
export declare function startEmbeddedEarly(entry: string, dataDir: string, port?: number): boolean;
