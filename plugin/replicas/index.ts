export { ReplicaSet, type ReplicaStatus, type Server } from './replica-set';
export { formatLsn, parseLsn } from './lsn';
