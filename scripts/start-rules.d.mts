export declare const SUPPORTED_NODE: string;
export declare function supportedNode(version: string): boolean;
export declare function nodeVersionProblem(version: string): string | null;
export declare function isLoopbackHost(hostname: string): boolean;
export declare function listenHost(vars: Record<string, string | undefined>): string | null;
export declare function listenPort(args: string[], vars: Record<string, string | undefined>): number;
export declare function isLoopbackNetworkLine(line: unknown): boolean;
export declare function withImport(nodeOptions: string | undefined, url: string): string;
