export { ReplicaSet, replicaLog, type ReplicaStatus, type Server } from './replica-set';
export { ReplicaTimeoutError, runOnReplicas } from './attempts';
export { formatLsn, parseLsn } from './lsn';
