/**
 * Hover and completion documentation: one entry per instruction, flag and `--mount` type, with a
 * link to the Dockerfile reference. The instruction and flag lists themselves are the linter's
 * (lint/flags.ts); docs.test.ts checks that every one of them has an entry here.
 */

export interface Doc {
  /** The form, as the reference writes it. */
  syntax: string;
  summary: string;
  url: string;
}

const REFERENCE = 'https://docs.docker.com/reference/dockerfile/';
const doc = (syntax: string, summary: string, anchor: string): Doc => ({
  syntax,
  summary,
  url: `${REFERENCE}#${anchor}`
});

export const INSTRUCTION_DOCS: Record<string, Doc> = {
  add: doc(
    'ADD [--chown=…] [--chmod=…] [--link] [--checksum=…] <src>… <dest>',
    'Adds local or remote files and directories; unpacks local tar archives and fetches URLs and Git repositories. Prefer COPY for plain files.',
    'add'
  ),
  arg: doc(
    'ARG <name>[=<default value>]',
    'Declares a build-time variable, settable with --build-arg. Before the first FROM it is global (FROM lines only); inside a stage it is visible after the declaration.',
    'arg'
  ),
  cmd: doc(
    'CMD ["executable","param1"] | CMD command param1',
    "The container's default command (or default arguments to ENTRYPOINT). Only the last CMD counts.",
    'cmd'
  ),
  copy: doc(
    'COPY [--from=<stage|image>] [--chown=…] [--chmod=…] [--link] <src>… <dest>',
    'Copies files from the build context, another stage or an image into the image.',
    'copy'
  ),
  entrypoint: doc(
    'ENTRYPOINT ["executable", "param1"] | ENTRYPOINT command param1',
    'The executable the container runs; CMD supplies its default arguments.',
    'entrypoint'
  ),
  env: doc(
    'ENV <key>=<value> …',
    'Sets environment variables for later instructions and the running container.',
    'env'
  ),
  expose: doc(
    'EXPOSE <port>[/<protocol>] …',
    'Documents the ports the container listens on (tcp unless /udp or /sctp); it publishes nothing.',
    'expose'
  ),
  from: doc(
    'FROM [--platform=<platform>] <image> [AS <name>]',
    'Starts a build stage from an image, `scratch`, or an earlier stage; AS names the stage.',
    'from'
  ),
  healthcheck: doc(
    'HEALTHCHECK [--interval=…] [--timeout=…] [--retries=…] CMD <command> | HEALTHCHECK NONE',
    "How the engine checks that the container still works; NONE turns off the base image's check.",
    'healthcheck'
  ),
  label: doc('LABEL <key>=<value> …', 'Adds metadata to the image.', 'label'),
  maintainer: doc(
    'MAINTAINER <name>',
    'Deprecated: sets the author field. Use LABEL org.opencontainers.image.authors=… instead.',
    'maintainer-deprecated'
  ),
  onbuild: doc(
    'ONBUILD <INSTRUCTION>',
    'An instruction that runs later, when another build uses this image as its base.',
    'onbuild'
  ),
  run: doc(
    'RUN [--mount=…] [--network=…] [--security=…] <command> | RUN ["executable", "param1"]',
    'Runs a command in a new layer on top of the current image and commits the result.',
    'run'
  ),
  shell: doc(
    'SHELL ["executable", "parameters"]',
    'The shell that shell-form RUN, CMD and ENTRYPOINT use (default ["/bin/sh", "-c"]).',
    'shell'
  ),
  stopsignal: doc(
    'STOPSIGNAL <signal>',
    'The signal the engine sends to stop the container (a name such as SIGTERM, or a number).',
    'stopsignal'
  ),
  user: doc(
    'USER <user>[:<group>]',
    'The user (and group) later instructions and the container run as.',
    'user'
  ),
  volume: doc(
    'VOLUME ["/data"] | VOLUME /data …',
    'Declares mount points for externally mounted volumes.',
    'volume'
  ),
  workdir: doc(
    'WORKDIR <path>',
    'Sets the working directory for later instructions and the container; created if missing.',
    'workdir'
  )
};

const chown = (i: string) =>
  doc(
    `${i} --chown=<user>:<group>`,
    'Owner of the copied files (names or numeric ids); root by default.',
    `${i.toLowerCase()}---chown---chmod`
  );
const chmod = (i: string) =>
  doc(
    `${i} --chmod=<perms>`,
    'Permissions of the copied files: octal (755) or symbolic (u+x).',
    `${i.toLowerCase()}---chown---chmod`
  );
const link = (i: string) =>
  doc(
    `${i} --link[=<boolean>]`,
    'Copies into a layer of its own, independent of the layers below, so it survives base-image changes in the cache.',
    `${i.toLowerCase()}---link`
  );
const exclude = (i: string) =>
  doc(
    `${i} --exclude=<path>`,
    'A pattern of files to leave out of the copy; repeatable.',
    `${i.toLowerCase()}---exclude`
  );

export const FLAG_DOCS: Record<string, Record<string, Doc>> = {
  add: {
    chown: chown('ADD'),
    chmod: chmod('ADD'),
    link: link('ADD'),
    'keep-git-dir': doc(
      'ADD --keep-git-dir=<boolean> <git ref> <dir>',
      'Keeps the .git directory when adding a Git repository.',
      'add---keep-git-dir'
    ),
    checksum: doc(
      'ADD --checksum=<hash> <url> <dest>',
      'The expected checksum of a remote source (sha256:…); the build fails on a mismatch.',
      'add---checksum'
    ),
    exclude: exclude('ADD'),
    unpack: doc(
      'ADD --unpack=<boolean> <src> <dest>',
      'Whether an archive source is extracted (local archives are by default, URLs are not).',
      'add---unpack'
    )
  },
  copy: {
    from: doc(
      'COPY --from=<stage|image|context> <src> <dest>',
      'Copies from an earlier stage (by name or index), an image, or a named context instead of the build context.',
      'copy---from'
    ),
    chown: chown('COPY'),
    chmod: chmod('COPY'),
    link: link('COPY'),
    parents: doc(
      'COPY --parents[=<boolean>] <src> <dest>',
      'Keeps the parent directories of the sources under the destination.',
      'copy---parents'
    ),
    exclude: exclude('COPY')
  },
  from: {
    platform: doc(
      'FROM --platform=<platform> <image>',
      'The platform of the base image (linux/amd64, $BUILDPLATFORM …) when it has several.',
      'from'
    )
  },
  run: {
    mount: doc(
      'RUN --mount=[type=<TYPE>][,option=<value>…]',
      'Mounts a filesystem while the command runs: bind (default), cache, tmpfs, secret or ssh.',
      'run---mount'
    ),
    network: doc(
      'RUN --network=<default|none|host>',
      'The network the command runs in: none cuts it off; host needs the network.host entitlement.',
      'run---network'
    ),
    security: doc(
      'RUN --security=<sandbox|insecure>',
      'insecure runs the command without the sandbox (needs the security.insecure entitlement).',
      'run---security'
    ),
    device: doc(
      'RUN --device=<name>[,required=<boolean>]',
      'Makes a CDI device available to the command (labs syntax).',
      'run---device'
    )
  },
  healthcheck: {
    interval: doc(
      'HEALTHCHECK --interval=<duration>',
      'Time between checks (default 30s).',
      'healthcheck'
    ),
    timeout: doc(
      'HEALTHCHECK --timeout=<duration>',
      'A check slower than this fails (default 30s).',
      'healthcheck'
    ),
    'start-period': doc(
      'HEALTHCHECK --start-period=<duration>',
      'Start-up time during which failures do not count (default 0s).',
      'healthcheck'
    ),
    'start-interval': doc(
      'HEALTHCHECK --start-interval=<duration>',
      'Time between checks during the start period (default 5s).',
      'healthcheck'
    ),
    retries: doc(
      'HEALTHCHECK --retries=<n>',
      'Consecutive failures before the container is unhealthy (default 3).',
      'healthcheck'
    )
  }
};

export const MOUNT_TYPE_DOCS: Record<string, Doc> = {
  bind: doc(
    'RUN --mount=type=bind[,from=…][,source=…],target=…',
    'Binds files from the context, a stage or an image, read-only by default.',
    'run---mounttypebind'
  ),
  cache: doc(
    'RUN --mount=type=cache,target=<path>[,id=…][,sharing=shared|private|locked]',
    'A cache directory kept between builds (package managers, compilers).',
    'run---mounttypecache'
  ),
  tmpfs: doc(
    'RUN --mount=type=tmpfs,target=<path>[,size=…]',
    'A tmpfs for the command only.',
    'run---mounttypetmpfs'
  ),
  secret: doc(
    'RUN --mount=type=secret,id=<id>[,target=…|,env=…][,required]',
    'A secret given to the build (--secret), as a file or variable, never stored in the image.',
    'run---mounttypesecret'
  ),
  ssh: doc(
    'RUN --mount=type=ssh[,id=…][,required]',
    "Access to the builder's SSH agent (--ssh), e.g. for private Git repositories.",
    'run---mounttypessh'
  )
};
