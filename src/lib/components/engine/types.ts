/** An engine of the registry with its health, as `engine.system.engines` answers it. */
export interface EngineRow {
  name: string;
  address: string;
  tls: boolean;
  status: string;
  detail?: string;
  apiVersion?: string;
}

/** The parts of `/system/df` the disk usage chart reads. */
export interface DiskUsage {
  LayersSize?: number;
  Images?: { Size: number; SharedSize: number; Containers: number }[] | null;
  Containers?: { SizeRw?: number; State?: string }[] | null;
  Volumes?: { UsageData?: { Size: number; RefCount: number } | null }[] | null;
  BuildCache?: { Size: number; InUse: boolean }[] | null;
}

/** An engine as Settings → Engines lists it: never key material, only whether a key is kept. */
export interface EngineSetting extends EngineRow {
  source: 'local' | 'config' | 'console';
  keys?: 'stored' | 'server files';
}
