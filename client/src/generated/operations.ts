// Generated from the API's served OpenAPI document by scripts/generate.ts (npm run generate): do not edit.
export const OPERATIONS = {
  "attachments": {
    "completeUpload": {
      "id": "uploads-complete",
      "method": "POST",
      "path": "/{projectSlug}/tasks/{taskId}/attachments/uploads/{uploadId}/complete",
      "params": {
        "project": "projectSlug",
        "task": "taskId",
        "upload": "uploadId"
      },
      "query": [],
      "body": null,
      "response": "json"
    },
    "createUpload": {
      "id": "uploads-create",
      "method": "POST",
      "path": "/{projectSlug}/tasks/{taskId}/attachments/uploads",
      "params": {
        "project": "projectSlug",
        "task": "taskId"
      },
      "query": [],
      "body": "json",
      "response": "json"
    },
    "get": {
      "id": "attachments-get",
      "method": "GET",
      "path": "/{projectSlug}/tasks/{taskId}/attachments/{attachmentId}",
      "params": {
        "project": "projectSlug",
        "task": "taskId",
        "attachment": "attachmentId"
      },
      "query": [],
      "body": null,
      "response": "json"
    },
    "uploadMultipart": {
      "id": "attachments-upload",
      "method": "POST",
      "path": "/{projectSlug}/tasks/{taskId}/attachments",
      "params": {
        "project": "projectSlug",
        "task": "taskId"
      },
      "query": [],
      "body": "multipart",
      "response": "json"
    }
  },
  "auditEvents": {
    "export": {
      "id": "auditEvents-export",
      "method": "GET",
      "path": "/audit-events/export",
      "params": {},
      "query": [
        "action",
        "actorType",
        "actorId",
        "targetType",
        "targetId",
        "since",
        "until",
        "format"
      ],
      "body": null,
      "response": "stream"
    },
    "list": {
      "id": "auditEvents-list",
      "method": "GET",
      "path": "/audit-events",
      "params": {},
      "query": [
        "action",
        "actorType",
        "actorId",
        "targetType",
        "targetId",
        "since",
        "until",
        "after",
        "limit"
      ],
      "body": null,
      "response": "json",
      "items": "events"
    }
  },
  "comments": {
    "create": {
      "id": "comments-add",
      "method": "POST",
      "path": "/{projectSlug}/tasks/{taskId}/comments",
      "params": {
        "project": "projectSlug",
        "task": "taskId"
      },
      "query": [],
      "body": "json",
      "response": "json"
    },
    "list": {
      "id": "comments-list",
      "method": "GET",
      "path": "/{projectSlug}/tasks/{taskId}/comments",
      "params": {
        "project": "projectSlug",
        "task": "taskId"
      },
      "query": [],
      "body": null,
      "response": "json"
    }
  },
  "labels": {
    "list": {
      "id": "labels-list",
      "method": "GET",
      "path": "/{projectSlug}/labels",
      "params": {
        "project": "projectSlug"
      },
      "query": [],
      "body": null,
      "response": "json"
    }
  },
  "me": {
    "get": {
      "id": "me-get",
      "method": "GET",
      "path": "/me",
      "params": {},
      "query": [],
      "body": null,
      "response": "json"
    }
  },
  "members": {
    "list": {
      "id": "members-list",
      "method": "GET",
      "path": "/{projectSlug}/members",
      "params": {
        "project": "projectSlug"
      },
      "query": [],
      "body": null,
      "response": "json"
    }
  },
  "projects": {
    "list": {
      "id": "projects-list",
      "method": "GET",
      "path": "/projects",
      "params": {},
      "query": [
        "after",
        "limit"
      ],
      "body": null,
      "response": "json",
      "items": "projects"
    }
  },
  "requests": {
    "list": {
      "id": "requests-list",
      "method": "GET",
      "path": "/requests",
      "params": {},
      "query": [
        "keyId",
        "appId",
        "status",
        "method",
        "route",
        "requestId",
        "idempotencyKey",
        "since",
        "until",
        "after",
        "limit"
      ],
      "body": null,
      "response": "json",
      "items": "requests"
    },
    "mine": {
      "id": "requests-mine",
      "method": "GET",
      "path": "/requests/mine",
      "params": {},
      "query": [
        "status",
        "method",
        "route",
        "requestId",
        "idempotencyKey",
        "since",
        "until",
        "after",
        "limit"
      ],
      "body": null,
      "response": "json",
      "items": "requests"
    }
  },
  "statuses": {
    "list": {
      "id": "statuses-list",
      "method": "GET",
      "path": "/{projectSlug}/statuses",
      "params": {
        "project": "projectSlug"
      },
      "query": [],
      "body": null,
      "response": "json"
    }
  },
  "tasks": {
    "create": {
      "id": "tasks-create",
      "method": "POST",
      "path": "/{projectSlug}/tasks",
      "params": {
        "project": "projectSlug"
      },
      "query": [],
      "body": "json",
      "response": "json"
    },
    "createMany": {
      "id": "tasks-createBatch",
      "method": "POST",
      "path": "/{projectSlug}/tasks/batch",
      "params": {
        "project": "projectSlug"
      },
      "query": [],
      "body": "json",
      "response": "json"
    },
    "delete": {
      "id": "tasks-delete",
      "method": "DELETE",
      "path": "/{projectSlug}/tasks/{taskId}",
      "params": {
        "project": "projectSlug",
        "task": "taskId"
      },
      "query": [],
      "body": null,
      "response": "json"
    },
    "deleted": {
      "id": "tasks-deleted",
      "method": "GET",
      "path": "/{projectSlug}/tasks/deleted",
      "params": {
        "project": "projectSlug"
      },
      "query": [
        "since",
        "after",
        "limit"
      ],
      "body": null,
      "response": "json",
      "items": "deleted"
    },
    "get": {
      "id": "tasks-get",
      "method": "GET",
      "path": "/{projectSlug}/tasks/{taskId}",
      "params": {
        "project": "projectSlug",
        "task": "taskId"
      },
      "query": [],
      "body": null,
      "response": "json"
    },
    "list": {
      "id": "tasks-list",
      "method": "GET",
      "path": "/{projectSlug}/tasks",
      "params": {
        "project": "projectSlug"
      },
      "query": [
        "page",
        "limit",
        "statusId",
        "status",
        "priority",
        "search",
        "assigneeId",
        "labelId",
        "sort",
        "order",
        "updatedSince",
        "after"
      ],
      "body": null,
      "response": "json",
      "items": "tasks"
    },
    "update": {
      "id": "tasks-update",
      "method": "PATCH",
      "path": "/{projectSlug}/tasks/{taskId}",
      "params": {
        "project": "projectSlug",
        "task": "taskId"
      },
      "query": [],
      "body": "json",
      "response": "json"
    },
    "updateMany": {
      "id": "tasks-updateBatch",
      "method": "PATCH",
      "path": "/{projectSlug}/tasks/batch",
      "params": {
        "project": "projectSlug"
      },
      "query": [],
      "body": "json",
      "response": "json"
    }
  },
  "usage": {
    "get": {
      "id": "usage-get",
      "method": "GET",
      "path": "/usage",
      "params": {},
      "query": [
        "keyId",
        "appId",
        "route",
        "granularity",
        "since",
        "until"
      ],
      "body": null,
      "response": "json"
    }
  },
  "webhookDeliveries": {
    "list": {
      "id": "webhookDeliveries-list",
      "method": "GET",
      "path": "/webhooks/endpoints/{endpointId}/deliveries",
      "params": {
        "endpoint": "endpointId"
      },
      "query": [
        "after",
        "limit"
      ],
      "body": null,
      "response": "json",
      "items": "deliveries"
    },
    "redeliver": {
      "id": "webhookDeliveries-redeliver",
      "method": "POST",
      "path": "/webhooks/endpoints/{endpointId}/deliveries/{deliveryId}/redeliver",
      "params": {
        "endpoint": "endpointId",
        "delivery": "deliveryId"
      },
      "query": [],
      "body": null,
      "response": "json"
    }
  },
  "webhooks": {
    "create": {
      "id": "webhooks-create",
      "method": "POST",
      "path": "/webhooks/endpoints",
      "params": {},
      "query": [],
      "body": "json",
      "response": "json"
    },
    "delete": {
      "id": "webhooks-delete",
      "method": "DELETE",
      "path": "/webhooks/endpoints/{endpointId}",
      "params": {
        "endpoint": "endpointId"
      },
      "query": [],
      "body": null,
      "response": "json"
    },
    "get": {
      "id": "webhooks-get",
      "method": "GET",
      "path": "/webhooks/endpoints/{endpointId}",
      "params": {
        "endpoint": "endpointId"
      },
      "query": [],
      "body": null,
      "response": "json"
    },
    "list": {
      "id": "webhooks-list",
      "method": "GET",
      "path": "/webhooks/endpoints",
      "params": {},
      "query": [],
      "body": null,
      "response": "json"
    },
    "rotateSecret": {
      "id": "webhooks-rotateSecret",
      "method": "POST",
      "path": "/webhooks/endpoints/{endpointId}/rotate-secret",
      "params": {
        "endpoint": "endpointId"
      },
      "query": [],
      "body": "json",
      "response": "json"
    },
    "test": {
      "id": "webhooks-test",
      "method": "POST",
      "path": "/webhooks/endpoints/{endpointId}/test",
      "params": {
        "endpoint": "endpointId"
      },
      "query": [],
      "body": null,
      "response": "json"
    },
    "update": {
      "id": "webhooks-update",
      "method": "PATCH",
      "path": "/webhooks/endpoints/{endpointId}",
      "params": {
        "endpoint": "endpointId"
      },
      "query": [],
      "body": "json",
      "response": "json"
    }
  }
} as const;

/** The largest file an attachment may be, in bytes. */
export const MAX_UPLOAD_BYTES = 10485760;
