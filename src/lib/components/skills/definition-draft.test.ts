import { describe, expect, it } from 'vitest';
import type { SkillDefinition } from '$lib/contracts/skills';
import { definitionFrom, draftFrom } from './definition-draft';

describe('the skill definition form', () => {
  it('reads a container skill, numbers and one argument a line', () => {
    const draft = draftFrom(null);
    Object.assign(draft, {
      id: 'wc',
      image: 'busybox:latest',
      command: 'sh\n-c\necho hi',
      memoryMb: '64',
      cpus: '0.5',
      paramsSchema: '{"type":"object","properties":{"n":{"type":"integer"}}}'
    });
    const { definition, errors } = definitionFrom(draft);
    expect(errors).toEqual({});
    expect(definition).toMatchObject({
      kind: 'container',
      id: 'wc',
      image: 'busybox:latest',
      command: ['sh', '-c', 'echo hi'],
      memoryMb: 64,
      cpus: 0.5,
      network: false,
      paramsSchema: { type: 'object', properties: { n: { type: 'integer' } } }
    });
  });

  it('reads an http skill with its headers and hosts', () => {
    const draft = draftFrom(null);
    Object.assign(draft, {
      kind: 'http',
      id: 'hook',
      url: 'https://api.example.com/x',
      headers: 'Authorization: Bearer a:b\n',
      allowHosts: 'cdn.example.com\n\n'
    });
    expect(definitionFrom(draft).definition).toMatchObject({
      kind: 'http',
      method: 'POST',
      headers: { Authorization: 'Bearer a:b' },
      allowHosts: ['cdn.example.com']
    });
  });

  it('names each field the contract refuses, and a params schema it cannot use', () => {
    const draft = draftFrom(null);
    Object.assign(draft, { id: 'Bad Id', image: '', memoryMb: 'lots', paramsSchema: '{"type":' });
    const { definition, errors } = definitionFrom(draft);
    expect(definition).toBeUndefined();
    expect(Object.keys(errors).sort()).toEqual(['id', 'image', 'memoryMb', 'paramsSchema']);
    expect(errors.paramsSchema).toMatch(/Not valid JSON/);
    draft.paramsSchema = '{"type":"string"}';
    expect(definitionFrom(draft).errors.paramsSchema).toMatch(/object/);
  });

  it('shows a saved definition as it was', () => {
    const saved: SkillDefinition = {
      kind: 'http',
      id: 'hook',
      description: 'd',
      paramsSchema: { type: 'object' },
      timeoutMs: 5000,
      method: 'PUT',
      url: 'https://api.example.com/x',
      headers: { 'X-A': '1' },
      body: '{"a": {params.a}}',
      allowHosts: ['b.example.com'],
      allowPrivate: true,
      responseMaxBytes: 2048
    };
    expect(definitionFrom(draftFrom(saved)).definition).toEqual(saved);
  });
});
