/** A JWT-shaped access token the server will refuse (bad signature) whose payload expires `seconds` from now. */
export function forgedAccessToken(seconds: number): string {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const exp = Math.floor(Date.now() / 1000) + seconds;
  return `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode({ sub: '1', typ: 'access', exp })}.forged`;
}
