export declare const CHROMIUM: string;
export declare function startChromiumInstall(): void;
export declare function waitForChromium(): Promise<void>;
