/** What a public answer's validators are made of: the publication, when it was (re)published, and the transcript's version. */
export interface Version {
  id: string;
  publishedAt: Date;
  /** The later of the transcript's fetch and its publisher's newest correction. */
  fetchedAt: Date;
}
