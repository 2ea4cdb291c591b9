/** Video ids the fake YouTube knows (made up; 11 characters like real ones). Any other id is "unavailable". */
export const FAKE_IDS = {
  /** OK; manual English, auto English, manual German captions. */
  captioned: "Hq7sWc2dT4E",
  /** OK; no captions at all. */
  noCaptions: "pN3x8KfLm0Q",
  /** status ERROR, "This video is unavailable" (also what any unknown id gets). */
  unavailable: "aB3dE5gH7jK",
  /** status LOGIN_REQUIRED, "Sign in to confirm your age". */
  ageRestricted: "Zr9kT2mVq8L",
  /** status AGE_VERIFICATION_REQUIRED. */
  ageVerification: "Ag3eV7rQ2nW",
  /** status LOGIN_REQUIRED, "This video is private". */
  private: "Pv4nQ7sX1wY",
  /** status LOGIN_REQUIRED, "Sign in to confirm you're not a bot" (what datacenter IPs get). */
  botCheck: "Bt6cH3kR9pM",
} as const;
