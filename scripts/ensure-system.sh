#!/usr/bin/env bash
# Installs and starts what the tests need, skipping whatever is already there:
# Debian's chromium, docker.io and busybox-static; docker-registry and apache2-utils (htpasswd)
# for the authenticated pull test; a running dockerd; the busybox base image.
set -euo pipefail

need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
command -v dockerd >/dev/null 2>&1 || need+=(docker.io)
[ -x /bin/busybox ] || [ -x /usr/bin/busybox ] || need+=(busybox-static)
[ -x /usr/bin/docker-registry ] || need+=(docker-registry)
command -v htpasswd >/dev/null 2>&1 || need+=(apache2-utils)
if [ ${#need[@]} -gt 0 ]; then
  echo "ensure-system: installing ${need[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

engine_up() { docker version --format '{{.Server.APIVersion}}' >/dev/null 2>&1; }
if ! engine_up; then
  echo "ensure-system: starting dockerd"
  mkdir -p /var/log
  (nohup dockerd >/var/log/berth-dockerd.log 2>&1 &)
  for _ in $(seq 1 60); do engine_up && break; sleep 0.5; done
  engine_up || { echo "ensure-system: dockerd did not start; see /var/log/berth-dockerd.log" >&2; tail -20 /var/log/berth-dockerd.log >&2 || true; exit 1; }
fi

# The test base image: busybox and its applet links, imported (no registry is reachable).
BASE_IMAGE="berth-test/busybox:latest"
if ! docker image inspect "$BASE_IMAGE" >/dev/null 2>&1; then
  echo "ensure-system: building $BASE_IMAGE"
  rootfs="$(mktemp -d)"
  mkdir -p "$rootfs/bin" "$rootfs/tmp" "$rootfs/etc"
  bb="$(command -v busybox)"
  cp "$bb" "$rootfs/bin/busybox"
  for applet in $("$rootfs/bin/busybox" --list); do
    [ "$applet" = busybox ] || ln -sf busybox "$rootfs/bin/$applet"
  done
  echo 'root:x:0:0:root:/root:/bin/sh' >"$rootfs/etc/passwd"
  tar -C "$rootfs" -c . | docker import --change 'CMD ["/bin/sh"]' --change 'LABEL berth.test=true' - "$BASE_IMAGE" >/dev/null
  rm -rf "$rootfs"
fi
echo "ensure-system: chromium, docker engine $(docker version --format '{{.Server.Version}}') and $BASE_IMAGE ready"
