export * from './attachment';
export * from './disposition';
export * from './image-size';
export * from './object-store';
export * from './inspect-upload';
export * from './file.errors';
