export declare const EARLY_WORKER_FILE: string;
export declare const EARLY_EMBEDDED: symbol;
export declare function startEmbeddedEarly(entry: string, dataDir: string): boolean;
