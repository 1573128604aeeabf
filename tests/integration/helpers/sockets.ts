import { io, type Socket } from 'socket.io-client';
import WebSocket from 'ws';
import type { Berth } from './berth';

/** A socket.io client as the console makes it; resolves once connected or rejects with the reason. */
export function connectSocket(berth: Berth, cookie?: string, origin = berth.url): Promise<Socket> {
  return new Promise((done, fail) => {
    const socket = io(berth.url, {
      path: '/socket.io',
      transports: ['websocket'],
      reconnection: false,
      timeout: 5000,
      extraHeaders: { ...(cookie ? { cookie } : {}), origin }
    });
    socket.once('connect', () => done(socket));
    socket.once('connect_error', (err) => {
      socket.close();
      fail(err);
    });
  });
}

export function waitFor<T = unknown>(socket: Socket, event: string, ms = 5000): Promise<T> {
  return new Promise((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`no ${event} within ${ms} ms`)), ms);
    socket.once(event, (payload: T) => {
      clearTimeout(timer);
      done(payload);
    });
  });
}

/** Opens /rpc/ws; resolves with the socket, or rejects with the HTTP status of a refusal. */
export function openRpcWs(berth: Berth, headers: Record<string, string> = {}): Promise<WebSocket> {
  return new Promise((done, fail) => {
    const ws = new WebSocket(`${berth.url.replace('http', 'ws')}/rpc/ws`, { headers });
    ws.once('open', () => done(ws));
    ws.once('unexpected-response', (_req, res) => fail(new Error(`HTTP ${res.statusCode}`)));
    ws.once('error', fail);
  });
}

export function rpcCall(ws: WebSocket, text: string): Promise<unknown> {
  return new Promise((done) => {
    ws.once('message', (data: Buffer) => done(JSON.parse(data.toString())));
    ws.send(text);
  });
}

export function closed(ws: WebSocket, ms = 5000): Promise<{ code: number; reason: string }> {
  return new Promise((done, fail) => {
    if (ws.readyState === WebSocket.CLOSED) return done({ code: 0, reason: 'already closed' });
    const timer = setTimeout(() => fail(new Error('still open')), ms);
    ws.once('close', (code, reason) => {
      clearTimeout(timer);
      done({ code, reason: reason.toString() });
    });
  });
}
