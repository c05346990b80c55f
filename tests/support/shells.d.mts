export declare const BUNDLED_ZSH: string;
export declare function findZsh(): string | undefined;
