import { labelsMatch } from './format';

/** What a system prune will take, worked out from the engine's lists before it runs. */
export interface PruneChoice {
  containers: boolean;
  images: boolean;
  networks: boolean;
  volumes: boolean;
  label: string[];
}

interface Container {
  Id: string;
  Names: string[];
  State: string;
  ImageID?: string;
  Labels?: Record<string, string> | null;
  NetworkSettings?: { Networks?: Record<string, { NetworkID?: string }> };
  Mounts?: { Type?: string; Name?: string }[];
}
interface Image {
  Id: string;
  RepoTags: string[] | null;
  Labels: Record<string, string> | null;
}
interface Network {
  Id: string;
  Name: string;
  Labels?: Record<string, string> | null;
}
interface Volume {
  Name: string;
  Labels: Record<string, string> | null;
}

export interface PrunePreview {
  containers: string[];
  images: string[];
  networks: string[];
  volumes: string[];
}

const BUILTIN = new Set(['bridge', 'host', 'none']);
const STOPPED = new Set(['exited', 'created', 'dead']);

/**
 * The engine prunes in this order: stopped containers first, so what only they used (dangling
 * images, networks, volumes) goes in the same run. The preview follows that order; the label
 * filter applies to each kind as the engine applies it.
 */
export function previewPrune(
  choice: PruneChoice,
  lists: { containers: object[]; images: Image[]; networks: Network[]; volumes: Volume[] }
): PrunePreview {
  const containers = lists.containers as Container[];
  const goingContainers = choice.containers
    ? containers.filter((c) => STOPPED.has(c.State) && labelsMatch(c.Labels, choice.label))
    : [];
  const gone = new Set(goingContainers.map((c) => c.Id));
  const staying = containers.filter((c) => !gone.has(c.Id));

  const usedNetworks = new Set(
    staying.flatMap((c) =>
      Object.values(c.NetworkSettings?.Networks ?? {}).map((n) => n.NetworkID ?? '')
    )
  );
  const usedVolumes = new Set(
    staying.flatMap((c) => (c.Mounts ?? []).filter((m) => m.Type === 'volume').map((m) => m.Name))
  );
  const usedImages = new Set(staying.map((c) => c.ImageID));
  const dangling = (i: Image) => !(i.RepoTags ?? []).some((t) => t !== '<none>:<none>');

  return {
    containers: goingContainers.map((c) => (c.Names[0] ?? c.Id).replace(/^\//, '')),
    networks: choice.networks
      ? lists.networks
          .filter(
            (n) =>
              !BUILTIN.has(n.Name) && !usedNetworks.has(n.Id) && labelsMatch(n.Labels, choice.label)
          )
          .map((n) => n.Name)
      : [],
    volumes: choice.volumes
      ? lists.volumes
          .filter((v) => !usedVolumes.has(v.Name) && labelsMatch(v.Labels, choice.label))
          .map((v) => v.Name)
      : [],
    images: choice.images
      ? lists.images
          .filter(
            (i) => dangling(i) && !usedImages.has(i.Id) && labelsMatch(i.Labels, choice.label)
          )
          .map((i) => i.Id)
      : []
  };
}
