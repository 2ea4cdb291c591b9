// Auth.js's session cookie names (the __Secure- one is used over HTTPS). Import-free: proxy.ts uses it too.
export const SESSION_COOKIES = ["__Secure-authjs.session-token", "authjs.session-token"] as const;
