/** A volume as the list answers it (the engine's casing). */
export interface VolumeItem {
  Name: string;
  Driver: string;
  Mountpoint: string;
  Labels: Record<string, string> | null;
  CreatedAt?: string;
}
