/**
 * The hint a diagnostic carries when its check gave none: for BuildKit's rules the rule's own
 * description (frontend/dockerfile/linter/ruleset.go), for Berth's a sentence on what to do.
 */

export const DEFAULT_HINTS: Record<string, string> = {
  StageNameCasing: 'Stage names should be lowercase',
  FromAsCasing: "The 'as' keyword should match the case of the 'from' keyword",
  NoEmptyContinuation: 'Empty continuation lines will become errors in a future release',
  ConsistentInstructionCasing:
    'All commands within the Dockerfile should use the same casing (either upper or lower)',
  DuplicateStageName: 'Stage names should be unique',
  ReservedStageName: 'Reserved words should not be used as stage names',
  JSONArgsRecommended:
    'JSON arguments recommended for ENTRYPOINT/CMD to prevent unintended behavior related to OS signals',
  MaintainerDeprecated:
    'The MAINTAINER instruction is deprecated, use a label instead to define an image author',
  UndefinedArgInFrom: 'FROM command must use declared ARGs',
  WorkdirRelativePath:
    'Relative workdir without an absolute workdir declared within the build can have unexpected results if the base image changes',
  UndefinedVar: 'Variables should be defined before their use',
  MultipleInstructionsDisallowed:
    'Multiple instructions of the same type should not be used in the same stage',
  LegacyKeyValueFormat: 'Legacy key/value format with whitespace separator should not be used',
  RedundantTargetPlatform:
    'Setting platform to predefined $TARGETPLATFORM in FROM is redundant as this is the default behavior',
  SecretsUsedInArgOrEnv: 'Sensitive data should not be used in the ARG or ENV commands',
  InvalidDefaultArgInFrom:
    'Default value for global ARG results in an empty or invalid base image name',
  FromPlatformFlagConstDisallowed: 'FROM --platform flag should not use a constant value',
  CopyIgnoredFile: 'Attempting to Copy file that is excluded by .dockerignore',
  InvalidDefinitionDescription:
    'Comment for build stage or argument should follow the format: `# <arg/stage name> <description>`. If this is not intended to be a description comment, add an empty line or comment between the instruction and the comment.',
  ExposeProtoCasing: 'Protocol in EXPOSE instruction should be lowercase',
  ExposeInvalidFormat: 'IP address and host-port mapping should not be used in EXPOSE instruction',
  SyntaxError: 'BuildKit refuses the file at this point; fix it before anything else.',
  InvalidInstruction: 'BuildKit refuses this instruction as written.',
  InvalidFlag: 'BuildKit refuses this flag value.',
  IgnoredFlag: 'Remove the flag: BuildKit does not read it.',
  InvalidCheckDirective: 'Write # check=skip=<rules>;error=<true|false>.',
  NoStage: 'Start the build with FROM; only ARG may come before it.',
  CopyFromStage: 'Name an earlier stage (FROM … AS name), or an image.',
  ExposeInvalidPort: 'Ports are 0–65535, with /tcp, /udp or /sctp.',
  InvalidHealthcheck:
    'HEALTHCHECK [--interval=30s --timeout=30s --start-period=0s --retries=3] CMD <command>, or HEALTHCHECK NONE.',
  InvalidStopSignal: 'Use a signal name such as SIGTERM or SIGINT, or a number from 1 to 64.'
};
