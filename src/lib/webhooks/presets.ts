/**
 * The webhook wizard's presets: for each sender and event, the conditions that pick the event,
 * a message template and a realistic (trimmed) sample delivery. Isomorphic, so the e2e tests
 * and the page share the very same samples.
 */

export type Sender = 'github' | 'gitlab' | 'ci';

export interface WebhookPreset {
  id: string;
  sender: Sender;
  label: string;
  /** A mapping name the wizard proposes (the route's last segment). */
  name: string;
  match: Record<string, string>;
  message: string;
  sample: { headers: Record<string, string>; body: Record<string, unknown> };
}

const repository = {
  id: 1296269,
  name: 'web',
  full_name: 'acme/web',
  html_url: 'https://github.com/acme/web',
  default_branch: 'main'
};
const sender = { login: 'ada', id: 583231, type: 'User' };
const ghHeaders = (event: string) => ({
  'content-type': 'application/json',
  'user-agent': 'GitHub-Hookshot/044aadd',
  'x-github-event': event,
  'x-github-delivery': '72d3162e-cc78-11e3-81ab-4c9367dc0958'
});

const project = {
  id: 15,
  name: 'web',
  path_with_namespace: 'acme/web',
  web_url: 'https://gitlab.example.com/acme/web',
  default_branch: 'main'
};
const glUser = { id: 7, name: 'Ada Lovelace', username: 'ada' };
const glHeaders = (event: string) => ({
  'content-type': 'application/json',
  'user-agent': 'GitLab/17.5.0',
  'x-gitlab-event': event,
  'x-gitlab-instance': 'https://gitlab.example.com'
});

export const PRESETS: readonly WebhookPreset[] = [
  {
    id: 'github-push',
    sender: 'github',
    label: 'GitHub · push',
    name: 'github-push',
    match: { 'headers.x-github-event': 'push' },
    message:
      'Push to {body.repository.full_name} ({body.ref}) by {body.pusher.name}: {body.head_commit.message} {body.compare}',
    sample: {
      headers: ghHeaders('push'),
      body: {
        ref: 'refs/heads/main',
        before: '6113728f27ae82c7b1a177c8d03f9e96e0adf246',
        after: '0d1a26e67d8f5eaf1f6ba5c57fc3c7d91ac0fd1c',
        compare: 'https://github.com/acme/web/compare/6113728f27ae...0d1a26e67d8f',
        repository,
        pusher: { name: 'ada', email: 'ada@example.com' },
        sender,
        head_commit: {
          id: '0d1a26e67d8f5eaf1f6ba5c57fc3c7d91ac0fd1c',
          message: 'Fix the login redirect',
          timestamp: '2026-11-20T10:30:00Z',
          author: { name: 'Ada Lovelace', email: 'ada@example.com', username: 'ada' }
        },
        commits: [
          {
            id: '0d1a26e67d8f5eaf1f6ba5c57fc3c7d91ac0fd1c',
            message: 'Fix the login redirect',
            url: 'https://github.com/acme/web/commit/0d1a26e67d8f'
          }
        ]
      }
    }
  },
  {
    id: 'github-pull-request',
    sender: 'github',
    label: 'GitHub · pull request opened',
    name: 'github-pr',
    match: { 'headers.x-github-event': 'pull_request', 'body.action': 'opened' },
    message:
      'Pull request #{body.number} "{body.pull_request.title}" opened on {body.repository.full_name} by {body.pull_request.user.login}: {body.pull_request.html_url}',
    sample: {
      headers: ghHeaders('pull_request'),
      body: {
        action: 'opened',
        number: 42,
        pull_request: {
          number: 42,
          title: 'Add dark mode',
          state: 'open',
          draft: false,
          html_url: 'https://github.com/acme/web/pull/42',
          user: { login: 'ada', id: 583231 },
          head: { ref: 'dark-mode', sha: 'a1b2c3d4e5f6' },
          base: { ref: 'main', sha: '0d1a26e67d8f' },
          body: 'Follows the system setting.'
        },
        repository,
        sender
      }
    }
  },
  {
    id: 'github-workflow-run',
    sender: 'github',
    label: 'GitHub · workflow run failed',
    name: 'github-ci',
    match: {
      'headers.x-github-event': 'workflow_run',
      'body.action': 'completed',
      'body.workflow_run.conclusion': 'failure'
    },
    message:
      'Workflow {body.workflow_run.name} failed on {body.repository.full_name} ({body.workflow_run.head_branch}): {body.workflow_run.html_url}',
    sample: {
      headers: ghHeaders('workflow_run'),
      body: {
        action: 'completed',
        workflow_run: {
          id: 30433642,
          name: 'CI',
          head_branch: 'main',
          head_sha: '0d1a26e67d8f5eaf1f6ba5c57fc3c7d91ac0fd1c',
          event: 'push',
          status: 'completed',
          conclusion: 'failure',
          run_number: 562,
          html_url: 'https://github.com/acme/web/actions/runs/30433642'
        },
        workflow: { id: 159038, name: 'CI', path: '.github/workflows/ci.yml' },
        repository,
        sender
      }
    }
  },
  {
    id: 'gitlab-push',
    sender: 'gitlab',
    label: 'GitLab · push',
    name: 'gitlab-push',
    match: { 'headers.x-gitlab-event': 'Push Hook' },
    message:
      'Push to {body.project.path_with_namespace} ({body.ref}) by {body.user_name}: {body.commits[0].message}',
    sample: {
      headers: glHeaders('Push Hook'),
      body: {
        object_kind: 'push',
        event_name: 'push',
        ref: 'refs/heads/main',
        before: '95790bf891e76fee5e1747ab589903a6a1f80f22',
        after: 'da1560886d4f094c3e6c9ef40349f7d38b5d27d7',
        user_name: 'Ada Lovelace',
        user_username: 'ada',
        project,
        commits: [
          {
            id: 'da1560886d4f094c3e6c9ef40349f7d38b5d27d7',
            message: 'Fix the login redirect',
            url: 'https://gitlab.example.com/acme/web/-/commit/da1560886d4f',
            author: { name: 'Ada Lovelace', email: 'ada@example.com' }
          }
        ],
        total_commits_count: 1
      }
    }
  },
  {
    id: 'gitlab-merge-request',
    sender: 'gitlab',
    label: 'GitLab · merge request opened',
    name: 'gitlab-mr',
    match: {
      'headers.x-gitlab-event': 'Merge Request Hook',
      'body.object_attributes.action': 'open'
    },
    message:
      'Merge request !{body.object_attributes.iid} "{body.object_attributes.title}" opened on {body.project.path_with_namespace} by {body.user.username}: {body.object_attributes.url}',
    sample: {
      headers: glHeaders('Merge Request Hook'),
      body: {
        object_kind: 'merge_request',
        event_type: 'merge_request',
        user: glUser,
        project,
        object_attributes: {
          iid: 12,
          title: 'Add dark mode',
          state: 'opened',
          action: 'open',
          source_branch: 'dark-mode',
          target_branch: 'main',
          url: 'https://gitlab.example.com/acme/web/-/merge_requests/12'
        }
      }
    }
  },
  {
    id: 'gitlab-pipeline',
    sender: 'gitlab',
    label: 'GitLab · pipeline failed',
    name: 'gitlab-pipeline',
    match: { 'headers.x-gitlab-event': 'Pipeline Hook', 'body.object_attributes.status': 'failed' },
    message:
      'Pipeline #{body.object_attributes.id} failed on {body.project.path_with_namespace} ({body.object_attributes.ref}): {body.object_attributes.url}',
    sample: {
      headers: glHeaders('Pipeline Hook'),
      body: {
        object_kind: 'pipeline',
        object_attributes: {
          id: 31,
          ref: 'main',
          sha: 'da1560886d4f094c3e6c9ef40349f7d38b5d27d7',
          status: 'failed',
          source: 'push',
          duration: 63,
          url: 'https://gitlab.example.com/acme/web/-/pipelines/31'
        },
        user: glUser,
        project
      }
    }
  },
  {
    id: 'ci-generic',
    sender: 'ci',
    label: 'Generic CI · build finished',
    name: 'ci-build',
    match: { 'body.status': 'failed' },
    message:
      'Build {body.build.number} of {body.project} on {body.branch} {body.status}: {body.url}',
    sample: {
      headers: { 'content-type': 'application/json', 'user-agent': 'ci-notifier/1.0' },
      body: {
        project: 'acme/web',
        branch: 'main',
        status: 'failed',
        build: { number: 1284, duration_s: 312, commit: '0d1a26e6' },
        url: 'https://ci.example.com/acme/web/builds/1284'
      }
    }
  }
];

export const presetById = (id: string): WebhookPreset | undefined =>
  PRESETS.find((p) => p.id === id);
