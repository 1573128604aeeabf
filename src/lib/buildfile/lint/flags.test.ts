import { describe, expect, it } from 'vitest';
import { lintBuildFile } from './index';
import { checkMount } from './flags';

const errors = (source: string) =>
  lintBuildFile(source).diagnostics.filter((d) => d.severity === 'error');

describe('unknown instructions and flags', () => {
  it('refuses an unknown instruction with BuildKit’s suggestion, also as an ONBUILD trigger', () => {
    expect(errors('FROM a\nCOPPY a b\n').map((d) => d.message)).toEqual([
      'unknown instruction: COPPY (did you mean COPY?)'
    ]);
    // A trigger runs only in builds FROM this image: a warning here.
    const [trigger] = lintBuildFile('FROM a\nONBUILD FETCH x\n').diagnostics.filter(
      (d) => d.rule === 'UnknownInstruction'
    );
    expect(trigger).toMatchObject({ severity: 'warning', line: 2, column: 9 });
    expect(errors('FROM a\nONBUILD FETCH x\n')).toEqual([]);
    expect(errors('FROM a\nfrobnicate x\n')[0]!.message).toBe('unknown instruction: frobnicate');
  });

  it('knows every flag of COPY and ADD, ADD --unpack and --keep-git-dir included', () => {
    const source = `FROM a
COPY --from=b --chown=1:1 --chmod=644 --link --parents --exclude=*.md --exclude=*.txt a /b/
ADD --chown=1 --chmod=755 --link=false --keep-git-dir --checksum=sha256:00 --exclude=x --unpack=true https://x/y.tar.gz /z/
RUN --mount=type=bind,from=b,source=/s,target=/t,rw --network=none --security=insecure x
FROM --platform=linux/arm64 a AS arm64
HEALTHCHECK --interval=5s --timeout=1s --start-period=1s --start-interval=1s --retries=3 CMD ["x"]
`;
    expect(errors(source)).toEqual([]);
  });

  it('refuses flags an instruction does not take, with the flag’s range', () => {
    const [copy] = errors('FROM a\nCOPY --unpack a b\n');
    expect(copy).toMatchObject({
      rule: 'UnknownFlag',
      message: 'unknown flag: --unpack',
      line: 2,
      column: 6,
      endColumn: 14
    });
    expect(errors('FROM a\nADD --parents a b\n')[0]!.message).toBe('unknown flag: --parents');
    expect(errors('FROM a\nRUN --netwrk=none x\n')[0]!.message).toBe(
      'unknown flag: --netwrk (did you mean network?)'
    );
    expect(errors('FROM a\nWORKDIR --x=1 /a\n')[0]!.message).toBe('unknown flag: --x');
    expect(errors('FROM --plaform=linux/amd64 a\n')[0]!.message).toBe(
      'unknown flag: --plaform (did you mean platform?)'
    );
  });

  it('refuses duplicate, valueless and non-boolean flags as BuildKit’s flag parser does', () => {
    expect(errors('FROM a\nCOPY --from=a --from=b x y\n')[0]!.message).toBe(
      'duplicate flag specified: --from'
    );
    expect(errors('FROM a\nCOPY --from x y\n')[0]!.message).toBe('missing a value on flag: --from');
    expect(errors('FROM a\nCOPY --link= x y\n')[0]!.message).toBe(
      'missing a value on flag: --link'
    );
    expect(errors('FROM a\nCOPY --link=yes x y\n')[0]!.message).toBe(
      'expecting boolean value for flag --link, not: yes'
    );
  });

  it('checks RUN --network and --security values; --device only under a labs syntax', () => {
    expect(errors('FROM a\nRUN --network=bridge x\n')[0]!.message).toBe(
      'unsupported network mode "bridge"'
    );
    expect(errors('FROM a\nRUN --security=root x\n')[0]!.message).toBe(
      'unsupported security mode "root"'
    );
    expect(errors('FROM a\nRUN --device=/dev/x x\n')[0]!.rule).toBe('UnknownFlag');
    expect(errors('# syntax=docker/dockerfile:1-labs\nFROM a\nRUN --device=/dev/x x\n')).toEqual(
      []
    );
  });

  it('warns that ARG and STOPSIGNAL ignore flags (BuildKit never reads them)', () => {
    const found = lintBuildFile('FROM a\nARG --x=1 A\n').diagnostics;
    expect(found.find((d) => d.line === 2)).toMatchObject({
      rule: 'IgnoredFlag',
      severity: 'warning'
    });
  });
});

describe('RUN --mount', () => {
  it('accepts every type with its options', () => {
    for (const mount of [
      'type=bind,source=/a,target=/b,from=build,readonly',
      'type=cache,target=/root/.cache,id=pip,sharing=locked,mode=0755,uid=1000,gid=1000',
      'type=tmpfs,target=/tmp,size=64m',
      'type=secret,id=npmrc,target=/root/.npmrc,required=true,mode=0400',
      'type=secret,id=token,env=TOKEN',
      'type=ssh,id=default,required',
      'target=/src,rw=true',
      'type=bind,"source=/a,b",target=/c'
    ]) {
      expect(checkMount(mount), mount).toBeUndefined();
    }
  });

  it('refuses what BuildKit’s parseMount and validateMount refuse', () => {
    expect(checkMount('type=volume,target=/a')).toBe('unsupported mount type "volume"');
    expect(checkMount('type=cahce,target=/a')).toBe(
      'unsupported mount type "cahce" (did you mean cache?)'
    );
    expect(checkMount('type=cache,tagret=/a')).toBe(
      "unexpected key 'tagret' in 'tagret=/a' (did you mean target?)"
    );
    expect(checkMount('type=bind,target')).toBe("invalid field 'target' must be a key=value pair");
    expect(checkMount('type=bind,required')).toBe(
      "unexpected key 'required' for mount type 'bind'"
    );
    expect(checkMount('type=cache,size=1m')).toBe("unexpected key 'size' for mount type 'cache'");
    expect(checkMount('type=bind,mode=0700,target=/a')).toBe(
      'mode not allowed for "bind" type mounts'
    );
    expect(checkMount('type=cache,sharing=open')).toBe('unsupported sharing value "open"');
    expect(checkMount('type=bind,sharing=shared')).toBe('invalid cache sharing set for bind mount');
    expect(checkMount('type=secret')).toBe('invalid secret mount. one of source, target required');
    expect(checkMount('type=secret,id=a,from=b')).toBe('secret mount should not have a from');
    expect(checkMount('type=bind,from=$STAGE')).toBe(
      "'from' doesn't support variable expansion, define alias stage instead"
    );
    expect(checkMount('type=cache,mode=999')).toBe('invalid value 999 for mode');
    expect(checkMount('"type=bind')).toBe('failed to parse csv mounts');
  });
});

describe('arguments BuildKit’s instruction parser refuses', () => {
  const refused = (source: string) =>
    errors(source)
      .filter((d) => d.rule === 'InvalidInstruction')
      .map((d) => d.message);

  it('counts arguments as BuildKit does', () => {
    expect(refused('FROM a\nCOPY onlyone\n')).toEqual([
      'COPY requires at least two arguments, but only one was provided. Destination could not be determined.'
    ]);
    expect(refused('FROM a\nUSER\n')).toEqual(['USER requires exactly one argument']);
    expect(refused('FROM a\nEXPOSE\n')).toEqual(['EXPOSE requires at least one argument']);
    expect(refused('FROM a b c d\n')).toEqual(['FROM requires either one or three arguments']);
    expect(refused('FROM a\nHEALTHCHECK\n')).toEqual([
      'HEALTHCHECK requires at least one argument'
    ]);
    // WORKDIR takes the rest of the line as one path.
    expect(refused('FROM a\nWORKDIR /my app\n')).toEqual([]);
  });

  it('refuses bad stage names, blank names, SHELL in shell form and a URL source for COPY', () => {
    expect(refused('FROM a AS 1st\n')).toEqual([
      'invalid name for build stage: "1st", name can\'t start with a number or contain symbols'
    ]);
    expect(refused('FROM a\nENV =x\n')).toEqual(['ENV names can not be blank']);
    expect(refused('FROM a\nARG =x\n')).toEqual(['ARG names can not be blank']);
    expect(refused('FROM a\nSHELL sh -c\n')).toEqual([
      'SHELL requires the arguments to be in JSON form'
    ]);
    expect(refused('FROM a\nSHELL []\n')).toEqual(['SHELL requires at least one argument']);
    expect(refused('FROM a\nCOPY https://x.org/a /a\n')).toEqual([
      "source can't be a URL for COPY"
    ]);
  });

  it('refuses ONBUILD ONBUILD, FROM and MAINTAINER triggers, once', () => {
    expect(refused('FROM a\nONBUILD ONBUILD RUN x\n')).toEqual([
      "Chaining ONBUILD via `ONBUILD ONBUILD` isn't allowed"
    ]);
    expect(refused('FROM a\nONBUILD from b\n')).toEqual([
      "FROM isn't allowed as an ONBUILD trigger"
    ]);
    expect(refused('FROM a\nONBUILD MAINTAINER me\n')).toEqual([
      "MAINTAINER isn't allowed as an ONBUILD trigger"
    ]);
    expect(refused('FROM a\nONBUILD RUN x\n')).toEqual([]);
  });
});
