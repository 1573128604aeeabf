export * from './users';
export * from './audit';
export * from './assistant';
export * from './skills';
export * from './access';
export * from './engines';
export * from './providers';
export * from './buildfiles';
