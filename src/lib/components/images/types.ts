/** An image as the list answers it (the engine's casing). */
export interface ImageItem {
  Id: string;
  RepoTags: string[] | null;
  Created: number;
  Size: number;
  Labels: Record<string, string> | null;
}
