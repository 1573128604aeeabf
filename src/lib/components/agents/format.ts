/** A heartbeat interval as people say it: 45 s, 5 min, 1 h 30 min. */
export function formatInterval(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  if (seconds % 60 !== 0 && seconds < 3600)
    return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const rest = minutes % 60;
  return rest ? `${Math.floor(minutes / 60)} h ${rest} min` : `${minutes / 60} h`;
}
